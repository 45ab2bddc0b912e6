import type { Role, User } from '@district/contracts/identity';
import {
  isBoolean,
  isNullableString,
  isString,
  isUuid,
  matchShape,
  oneOf,
  pickShape,
  type FieldChecks,
} from './shape-guard';

const ROLES: Record<Role, true> = { student: true, teacher: true };

const USER_FIELDS: FieldChecks<User> = {
  id: isUuid,
  name: isString,
  username: isString,
  email: isString,
  role: oneOf(ROLES),
  approved: isBoolean,
  isAdmin: isBoolean,
  profileImage: isNullableString,
  createdAt: isString,
};

/** The contract's userSchema, without zod (src/lib/shape-guard.ts): the user, or undefined when it is not one. */
export function parseUser(value: unknown): User | undefined {
  return matchShape(value, USER_FIELDS) ? pickShape(value, USER_FIELDS) : undefined;
}

/** The contract's schema itself, loaded when an answer needs it (sign-in, sign-up). */
export const loadUserSchema = () => import('./user-schema').then((m) => m.userSchema);

import { QueryFailedError } from 'typeorm';
import { AccountTakenError } from '../identity.errors';

/** Index names from migration 1732320000000-create-users. */
const FIELD_BY_INDEX: Record<string, 'email' | 'username'> = {
  users_email_key: 'email',
  users_username_key: 'username',
};

export function isUniqueViolation(
  error: unknown,
): error is QueryFailedError & { driverError: { constraint?: string } } {
  return error instanceof QueryFailedError && (error.driverError as { code?: string }).code === '23505';
}

/** A lost race for an email or username becomes the same 409 as the friendly pre-check gives. */
export function accountTakenFrom(error: unknown): AccountTakenError | null {
  if (!isUniqueViolation(error)) return null;
  const field = FIELD_BY_INDEX[error.driverError.constraint ?? ''];
  return field ? new AccountTakenError(field) : null;
}

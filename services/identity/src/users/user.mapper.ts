import type { User, UserChangedEvent } from '@district/contracts';
import type { UserEntity } from './user.entity';

export type UserChange = UserChangedEvent['changed'][number];

/** The user as clients see it: never the password hash or token bookkeeping. */
export function toUser(entity: UserEntity): User {
  return {
    id: entity.id,
    name: entity.name,
    username: entity.username,
    email: entity.email,
    role: entity.role,
    approved: entity.approved,
    isAdmin: entity.isAdmin,
    profileImage: entity.profileImage,
    createdAt: entity.createdAt.toISOString(),
  };
}

/** The admin flag as a session holds it: only on an approved account, so a suspended admin holds no admin rights (ADR 0011). */
export function sessionIsAdmin(entity: Pick<UserEntity, 'isAdmin' | 'approved'>): boolean {
  return entity.isAdmin && entity.approved;
}

/** The signed-in user as sign-in, registration and /me answer: never more rights than the session holds. */
export function toSessionUser(entity: UserEntity): User {
  return { ...toUser(entity), isAdmin: sessionIsAdmin(entity) };
}

/** identity.user.created/updated: the user as clients see it, the new token version and what changed. */
export function toUserChangedEvent(entity: UserEntity, changed: UserChange[]): UserChangedEvent {
  return { user: toUser(entity), tokenVersion: entity.tokenVersion, changed };
}

import type { User } from '@district/contracts';
import type { UserEntity } from './user.entity';

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

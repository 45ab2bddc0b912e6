import type { Role } from '@district/contracts';
import { UserEntity } from './user.entity';

/** A users row as raw SQL returns it (the repositories that page or write in bulk read rows, not entities). */
export interface UserRow {
  id: string;
  name: string;
  username: string;
  email: string;
  /** Absent where a statement leaves it out (a page of the admin list never carries it). */
  password_hash?: string | null;
  role: Role;
  approved: boolean;
  is_admin: boolean;
  profile_image: string | null;
  token_version: number;
  sessions_valid_from_version: number;
  created_at: Date;
  updated_at: Date;
}

export const USER_COLUMNS = `id, name, username, email, password_hash, role, approved, is_admin, profile_image, token_version,
  sessions_valid_from_version, created_at, updated_at`;

/** The row as the entity TypeORM would give, so events and answers are made by the same mappers. */
export function toUserEntity(row: UserRow): UserEntity {
  return Object.assign(new UserEntity(), {
    id: row.id,
    name: row.name,
    username: row.username,
    email: row.email,
    passwordHash: row.password_hash ?? null,
    role: row.role,
    approved: row.approved,
    isAdmin: row.is_admin,
    profileImage: row.profile_image,
    tokenVersion: row.token_version,
    sessionsValidFromVersion: row.sessions_valid_from_version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });
}

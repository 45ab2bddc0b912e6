import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { Role } from '@district/contracts';

/** A person who can sign in. Email and username are unique case-insensitively (expression indexes, see migrations). */
@Entity({ name: 'users' })
export class UserEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ type: 'varchar', length: 120 })
  name!: string;

  @Column({ type: 'varchar', length: 40 })
  username!: string;

  /** Always stored lower-cased. */
  @Column({ type: 'varchar', length: 254 })
  email!: string;

  /** argon2id; null for accounts that only sign in through the OpenID provider. */
  @Column({ name: 'password_hash', type: 'text', nullable: true })
  passwordHash!: string | null;

  @Column({ type: 'varchar', length: 16 })
  role!: Role;

  @Column({ type: 'boolean' })
  approved!: boolean;

  @Column({ name: 'is_admin', type: 'boolean' })
  isAdmin!: boolean;

  @Column({ name: 'profile_image', type: 'text', nullable: true })
  profileImage!: string | null;

  /** Carried in every session token; bumped by each change that must reach live sessions at once. */
  @Column({ name: 'token_version', type: 'integer' })
  tokenVersion!: number;

  /**
   * Tokens carrying a lower version cannot be refreshed at /me: a password reset sets this to the new
   * version. A version rather than a timestamp, so a sign-in racing the reset cannot slip through.
   */
  @Column({ name: 'sessions_valid_from_version', type: 'integer' })
  sessionsValidFromVersion!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

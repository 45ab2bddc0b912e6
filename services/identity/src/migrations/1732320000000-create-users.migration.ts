import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Users and their links to OpenID providers. Names are unqualified: the connection's search_path puts them
 * in identity's own schema (or a test's throwaway one).
 */
export class CreateUsers1732320000000 implements MigrationInterface {
  name = 'CreateUsers1732320000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name varchar(120) NOT NULL,
        username varchar(40) NOT NULL,
        email varchar(254) NOT NULL,
        password_hash text,
        role varchar(16) NOT NULL DEFAULT 'student' CONSTRAINT users_role_check CHECK (role IN ('student', 'teacher')),
        approved boolean NOT NULL DEFAULT false,
        is_admin boolean NOT NULL DEFAULT false,
        profile_image text,
        token_version integer NOT NULL DEFAULT 1,
        sessions_valid_from_version integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Case-insensitive uniqueness lives in the database, so two racing sign-ups cannot both win.
    await queryRunner.query(`CREATE UNIQUE INDEX users_email_key ON users (lower(email))`);
    await queryRunner.query(`CREATE UNIQUE INDEX users_username_key ON users (lower(username))`);
    await queryRunner.query(`CREATE INDEX users_created_at_idx ON users (created_at, id)`);
    await queryRunner.query(`
      CREATE TABLE external_identities (
        issuer text NOT NULL,
        subject text NOT NULL,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (issuer, subject)
      )`);
    await queryRunner.query(`CREATE INDEX external_identities_user_idx ON external_identities (user_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE external_identities`);
    await queryRunner.query(`DROP TABLE users`);
  }
}

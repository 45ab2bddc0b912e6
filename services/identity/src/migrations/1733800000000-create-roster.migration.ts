import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The district's roster (ADR 0042): schools, terms, courses, classes, enrolments and the roles people hold at a
 * school, as OneRoster 1.2 CSV describes them, with each row's `sourced_id` (the SIS's id, so later imports update
 * the same row) and `row_hash` (the normalised row last applied, so an unchanged row writes nothing). Nothing here is
 * deleted by an import: an absent or `tobedeleted` row turns `active` off.
 *
 * `roster_version_seq` orders the snapshots identity publishes (identity.roster.class/school.changed.v1): every
 * change to a class's or a school's membership takes the next value into its `version`.
 */
export class CreateRoster1733800000000 implements MigrationInterface {
  name = 'CreateRoster1733800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // The extension is the database's, shared by every schema: schemas migrating at once (tests, replicas of
    // several installations) take turns, or one of them fails on the catalogue's unique key.
    await queryRunner.query(`SELECT pg_advisory_lock(hashtext('district:create-extension:pg_trgm'))`);
    try {
      await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public`);
    } finally {
      await queryRunner.query(`SELECT pg_advisory_unlock(hashtext('district:create-extension:pg_trgm'))`);
    }
    await queryRunner.query(`CREATE SEQUENCE roster_version_seq`);
    await queryRunner.query(`ALTER TABLE users ADD COLUMN sourced_id varchar(255)`);
    await queryRunner.query(`ALTER TABLE users ADD COLUMN row_hash varchar(64)`);
    await queryRunner.query(`CREATE UNIQUE INDEX users_sourced_id_key ON users (sourced_id)`);
    // The admin search (q matches name, username or email anywhere) and the newest-first pages. No pending list
    // (fastupdate): after a bulk import of 40,000 accounts, searches walked the unmerged list until a vacuum (47-159 ms
    // for a count, 1 ms after).
    await queryRunner.query(
      `CREATE INDEX users_search_trgm_idx ON users USING gin ((lower(name || ' ' || username || ' ' || email)) public.gin_trgm_ops) WITH (fastupdate = off)`,
    );
    await queryRunner.query(`CREATE INDEX users_newest_idx ON users (created_at DESC, id DESC)`);
    await queryRunner.query(`
      CREATE TABLE schools (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        sourced_id varchar(255) UNIQUE,
        name varchar(200) NOT NULL,
        identifier varchar(100),
        active boolean NOT NULL DEFAULT true,
        version bigint NOT NULL DEFAULT nextval('roster_version_seq'),
        row_hash varchar(64),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE academic_sessions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        sourced_id varchar(255) NOT NULL UNIQUE,
        title varchar(200) NOT NULL,
        type varchar(20) NOT NULL,
        start_date date NOT NULL,
        end_date date NOT NULL,
        school_year varchar(10) NOT NULL,
        active boolean NOT NULL DEFAULT true,
        row_hash varchar(64)
      )`);
    await queryRunner.query(`
      CREATE TABLE courses (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        sourced_id varchar(255) NOT NULL UNIQUE,
        title varchar(200) NOT NULL,
        course_code varchar(100),
        school_id uuid REFERENCES schools (id),
        active boolean NOT NULL DEFAULT true,
        row_hash varchar(64)
      )`);
    await queryRunner.query(`
      CREATE TABLE classes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        sourced_id varchar(255) UNIQUE,
        title varchar(200) NOT NULL,
        class_code varchar(100),
        school_id uuid NOT NULL REFERENCES schools (id),
        course_id uuid REFERENCES courses (id),
        term varchar(400),
        course_code varchar(100),
        active boolean NOT NULL DEFAULT true,
        version bigint NOT NULL DEFAULT nextval('roster_version_seq'),
        row_hash varchar(64),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX classes_school_idx ON classes (school_id, title, id)`);
    await queryRunner.query(`
      CREATE TABLE enrollments (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        sourced_id varchar(255) NOT NULL UNIQUE,
        class_id uuid NOT NULL REFERENCES classes (id),
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        role varchar(20) NOT NULL CONSTRAINT enrollments_role_check CHECK (role IN ('teacher', 'student')),
        is_primary boolean NOT NULL DEFAULT false,
        begin_date date,
        end_date date,
        active boolean NOT NULL DEFAULT true,
        row_hash varchar(64)
      )`);
    await queryRunner.query(
      `CREATE INDEX enrollments_class_idx ON enrollments (class_id, role) WHERE active`,
    );
    await queryRunner.query(
      `CREATE INDEX enrollments_user_idx ON enrollments (user_id, class_id) WHERE active`,
    );
    // The roles a person holds at a school (roles.csv). `administrator` makes a school administrator.
    await queryRunner.query(`
      CREATE TABLE user_roles (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        sourced_id varchar(255) NOT NULL UNIQUE,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        school_id uuid NOT NULL REFERENCES schools (id),
        role varchar(30) NOT NULL,
        role_type varchar(10) NOT NULL,
        begin_date date,
        end_date date,
        active boolean NOT NULL DEFAULT true,
        row_hash varchar(64)
      )`);
    await queryRunner.query(
      `CREATE INDEX user_roles_school_idx ON user_roles (school_id, role) WHERE active`,
    );
    await queryRunner.query(
      `CREATE INDEX user_roles_user_idx ON user_roles (user_id, school_id) WHERE active`,
    );
    await queryRunner.query(`
      CREATE TABLE roster_imports (
        id uuid PRIMARY KEY,
        status varchar(10) NOT NULL CONSTRAINT roster_imports_status_check
          CHECK (status IN ('queued', 'running', 'done', 'failed')),
        file_name varchar(255) NOT NULL,
        created_by uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        finished_at timestamptz,
        heartbeat_at timestamptz,
        total integer NOT NULL DEFAULT 0,
        processed integer NOT NULL DEFAULT 0,
        created integer NOT NULL DEFAULT 0,
        updated integer NOT NULL DEFAULT 0,
        deactivated integer NOT NULL DEFAULT 0,
        error_count integer NOT NULL DEFAULT 0,
        failure text
      )`);
    await queryRunner.query(
      `CREATE INDEX roster_imports_newest_idx ON roster_imports (created_at DESC, id DESC)`,
    );
    await queryRunner.query(`
      CREATE TABLE roster_import_errors (
        import_id uuid NOT NULL REFERENCES roster_imports (id) ON DELETE CASCADE,
        seq integer NOT NULL,
        file varchar(40) NOT NULL,
        line integer NOT NULL,
        field varchar(100) NOT NULL,
        message text NOT NULL,
        PRIMARY KEY (import_id, seq)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'roster_import_errors',
      'roster_imports',
      'user_roles',
      'enrollments',
      'classes',
      'courses',
      'academic_sessions',
      'schools',
    ])
      await queryRunner.query(`DROP TABLE ${table}`);
    await queryRunner.query(`DROP INDEX users_newest_idx`);
    await queryRunner.query(`DROP INDEX users_search_trgm_idx`);
    await queryRunner.query(`DROP INDEX users_sourced_id_key`);
    await queryRunner.query(`ALTER TABLE users DROP COLUMN row_hash`);
    await queryRunner.query(`ALTER TABLE users DROP COLUMN sourced_id`);
    await queryRunner.query(`DROP SEQUENCE roster_version_seq`);
  }
}

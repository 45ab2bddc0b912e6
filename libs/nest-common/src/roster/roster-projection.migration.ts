import type { MigrationInterface, QueryRunner } from 'typeorm';
import { assertSchemaName } from '../bus/outbox/messaging-tables';

/**
 * A service's copy of the district's roster (ADR 0042), kept from identity's snapshot events: each class (its school,
 * whether it is active, the version of the snapshot held) with its teachers and students, and each school's
 * administrators. Only what rights need: no names, no emails (those stay identity's).
 */
export function createRosterProjectionMigration(schema: string): new () => MigrationInterface {
  assertSchemaName(schema);
  const name = 'RosterProjection1733800000000';
  class RosterProjection implements MigrationInterface {
    name = name;

    async up(queryRunner: QueryRunner): Promise<void> {
      await queryRunner.query(`
        CREATE TABLE "${schema}".roster_classes (
          id uuid PRIMARY KEY,
          school_id uuid NOT NULL,
          title varchar(200) NOT NULL,
          sourced_id varchar(255),
          active boolean NOT NULL,
          version bigint NOT NULL
        )`);
      await queryRunner.query(
        `CREATE INDEX roster_classes_school_idx ON "${schema}".roster_classes (school_id)`,
      );
      await queryRunner.query(`
        CREATE TABLE "${schema}".roster_members (
          class_id uuid NOT NULL REFERENCES "${schema}".roster_classes (id) ON DELETE CASCADE,
          user_id uuid NOT NULL,
          role varchar(10) NOT NULL CHECK (role IN ('teacher', 'student')),
          sourced_id varchar(255),
          PRIMARY KEY (class_id, user_id)
        )`);
      await queryRunner.query(
        `CREATE INDEX roster_members_user_idx ON "${schema}".roster_members (user_id, role)`,
      );
      await queryRunner.query(`
        CREATE TABLE "${schema}".roster_schools (
          id uuid PRIMARY KEY,
          name varchar(200) NOT NULL,
          active boolean NOT NULL,
          version bigint NOT NULL
        )`);
      await queryRunner.query(`
        CREATE TABLE "${schema}".roster_school_admins (
          school_id uuid NOT NULL REFERENCES "${schema}".roster_schools (id) ON DELETE CASCADE,
          user_id uuid NOT NULL,
          PRIMARY KEY (school_id, user_id)
        )`);
      await queryRunner.query(
        `CREATE INDEX roster_school_admins_user_idx ON "${schema}".roster_school_admins (user_id)`,
      );
    }

    async down(queryRunner: QueryRunner): Promise<void> {
      await queryRunner.query(`DROP TABLE "${schema}".roster_school_admins`);
      await queryRunner.query(`DROP TABLE "${schema}".roster_schools`);
      await queryRunner.query(`DROP TABLE "${schema}".roster_members`);
      await queryRunner.query(`DROP TABLE "${schema}".roster_classes`);
    }
  }
  Object.defineProperty(RosterProjection, 'name', { value: name });
  return RosterProjection;
}

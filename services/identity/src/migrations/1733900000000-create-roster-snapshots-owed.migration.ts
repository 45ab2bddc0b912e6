import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The classes and schools whose snapshot event an import owes (ADR 0042, "One snapshot per class"). A batch notes
 * the ids it changed here in its own transaction instead of publishing a snapshot then; the import publishes each
 * owed snapshot once when its files are applied, deleting the row in the transaction that enqueues the event. A
 * class changed by classes.csv and again by enrollments.csv is published once, and an enrollments.csv in any
 * order (not grouped by class) costs one snapshot per class, not one per class per batch. Logged: an import that
 * stops midway leaves its owed rows, published when it fails or at the next start.
 */
export class CreateRosterSnapshotsOwed1733900000000 implements MigrationInterface {
  name = 'CreateRosterSnapshotsOwed1733900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE roster_snapshots_owed (
        kind varchar(10) NOT NULL CHECK (kind IN ('school', 'class')),
        id uuid NOT NULL,
        PRIMARY KEY (kind, id)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE roster_snapshots_owed`);
  }
}

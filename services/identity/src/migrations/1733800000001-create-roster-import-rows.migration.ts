import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sourcedIds an import has read, by file (ADR 0042): a duplicate within a file is found by the primary key, a
 * bulk file's absent rows are those of the table the import did not stage (one SQL statement, no id set held in
 * memory), and a row that depends on a skipped one names the line that was skipped. Unlogged: the rows live only
 * while their import runs and are removed when it ends; a crash loses nothing an import needs afterwards.
 */
export class CreateRosterImportRows1733800000001 implements MigrationInterface {
  name = 'CreateRosterImportRows1733800000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE UNLOGGED TABLE roster_import_rows (
        import_id uuid NOT NULL,
        file varchar(40) NOT NULL,
        sourced_id varchar(255) NOT NULL,
        line integer NOT NULL,
        skipped boolean NOT NULL DEFAULT false,
        PRIMARY KEY (import_id, file, sourced_id)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE roster_import_rows`);
  }
}

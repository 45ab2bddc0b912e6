import type { MigrationInterface, QueryRunner } from 'typeorm';

/** PASS_MARK (libs/contracts) when this migration was written: a migration does not change with the code. */
const PASS_MARK = 70;
/** Rows a quiz's tally is spread over, so concurrent submissions of one quiz rarely wait on one row's lock. */
const SHARDS = 8;

/**
 * Issue #36 (ADR 0042, "Unscoped totals"): results counted per quiz as they are written. A district administrator's
 * dashboard covers every result: its X-Total-Count and summary counted and summed a million rows (0.6–0.7 s each time).
 * `grade_tallies` holds, per kind, quiz and shard, the results' count, score sum and passes, kept by statement-level
 * triggers on grades in the writing statement's own transaction (exact, never stale), from the transition tables:
 * one upsert per statement whatever its row count (a submission's one row, an erasure's many, a bulk load's million),
 * in key order, so two statements never lock tally rows in opposite orders. A row's shard comes from its id. TRUNCATE
 * empties the tallies too. A scoped read (a teacher's classes, a school, one pupil, one class) still counts its rows.
 * The functions keep the search_path they were created with, so a statement from any connection finds the table.
 */
export class GradeTallies1733900000000 implements MigrationInterface {
  name = 'GradeTallies1733900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE grade_tallies (
        kind varchar(5) NOT NULL,
        quiz_id uuid NOT NULL,
        shard smallint NOT NULL,
        attempts integer NOT NULL,
        score_sum bigint NOT NULL,
        passed integer NOT NULL,
        quiz_title varchar(200) NOT NULL,
        PRIMARY KEY (kind, quiz_id, shard)
      )`);
    const add = (rows: string, sign: '+' | '-') => `
        INSERT INTO grade_tallies AS t (kind, quiz_id, shard, attempts, score_sum, passed, quiz_title)
        SELECT kind, quiz_id, (hashtext(id::text) & ${SHARDS - 1})::smallint, ${sign}count(*), ${sign}sum(score),
               ${sign}count(*) FILTER (WHERE score >= ${PASS_MARK}), max(quiz_title)
          FROM ${rows} GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
        ON CONFLICT (kind, quiz_id, shard) DO UPDATE SET
          attempts = t.attempts + EXCLUDED.attempts, score_sum = t.score_sum + EXCLUDED.score_sum,
          passed = t.passed + EXCLUDED.passed, quiz_title = GREATEST(t.quiz_title, EXCLUDED.quiz_title);`;
    await queryRunner.query(`
      CREATE FUNCTION grade_tallies_inserted() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
      BEGIN ${add('new_rows', '+')} RETURN NULL; END $fn$`);
    await queryRunner.query(`
      CREATE FUNCTION grade_tallies_deleted() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
      BEGIN ${add('old_rows', '-')} RETURN NULL; END $fn$`);
    await queryRunner.query(`
      CREATE FUNCTION grade_tallies_updated() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
      BEGIN ${add('old_rows', '-')} ${add('new_rows', '+')} RETURN NULL; END $fn$`);
    await queryRunner.query(`
      CREATE FUNCTION grade_tallies_truncated() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
      BEGIN DELETE FROM grade_tallies; RETURN NULL; END $fn$`);
    await queryRunner.query(`
      CREATE TRIGGER grades_tally_insert AFTER INSERT ON grades REFERENCING NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION grade_tallies_inserted()`);
    await queryRunner.query(`
      CREATE TRIGGER grades_tally_delete AFTER DELETE ON grades REFERENCING OLD TABLE AS old_rows
        FOR EACH STATEMENT EXECUTE FUNCTION grade_tallies_deleted()`);
    await queryRunner.query(`
      CREATE TRIGGER grades_tally_update AFTER UPDATE ON grades REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION grade_tallies_updated()`);
    await queryRunner.query(`
      CREATE TRIGGER grades_tally_truncate AFTER TRUNCATE ON grades
        FOR EACH STATEMENT EXECUTE FUNCTION grade_tallies_truncated()`);
    // The results already stored.
    await queryRunner.query(add('grades', '+').replace(/;\s*$/, ''));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const t of ['insert', 'delete', 'update', 'truncate'])
      await queryRunner.query(`DROP TRIGGER grades_tally_${t} ON grades`);
    for (const f of ['inserted', 'deleted', 'updated', 'truncated'])
      await queryRunner.query(`DROP FUNCTION grade_tallies_${f}()`);
    await queryRunner.query(`DROP TABLE grade_tallies`);
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #34 (ADR 0033): a quiz's owner and its review setting.
 * - The owner is `created_by_id`, which every quiz already records (the demo's: the demo teacher who seeds them), so
 *   no row changes owner here. A NULL owner (none today; a deleted teacher's quizzes from now on) means
 *   administrators only. The index serves the owner's lookups (right of access, identity's deletion).
 * - `quizzes.reveal_answers`: when a student's review shows the key; existing quizzes keep today's 'always'.
 * - `grades.reveal_answers`: the quiz's setting copied onto its results when the quiz is deleted (NULL while it
 *   exists, whose row then decides), so a deleted 'never' quiz does not hand out its key. Results of quizzes
 *   deleted before this migration stay NULL, read as 'always': what their students were already shown.
 */
export class QuizOwnerAndReveal1733600000000 implements MigrationInterface {
  name = 'QuizOwnerAndReveal1733600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE quizzes ADD COLUMN reveal_answers varchar(20) NOT NULL DEFAULT 'always'
        CHECK (reveal_answers IN ('always', 'afterLastAttempt', 'never'))`);
    await queryRunner.query(`
      ALTER TABLE grades ADD COLUMN reveal_answers varchar(20) NULL
        CHECK (reveal_answers IN ('always', 'afterLastAttempt', 'never'))`);
    await queryRunner.query(`CREATE INDEX quizzes_created_by_idx ON quizzes (created_by_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX quizzes_created_by_idx`);
    await queryRunner.query(`ALTER TABLE grades DROP COLUMN reveal_answers`);
    await queryRunner.query(`ALTER TABLE quizzes DROP COLUMN reveal_answers`);
  }
}

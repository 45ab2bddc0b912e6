import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #36 (ADR 0042): quizzes assigned to classes, and results paged by scope.
 * - `quizzes.class_ids`: the classes a quiz is assigned to ('{}': unassigned, the spec's quiz for every student).
 *   An array on the quiz row rather than a quiz_classes table: a quiz is always read whole (lists, the marking
 *   cache, submit_grade's row), so its assignment comes with it without a join or a second query, a PUT replaces it
 *   in the same UPDATE that bumps the version (which the marking cache already watches), and a student's list is one
 *   statement: unassigned quizzes (partial index) OR `class_ids && <their classes>` (GIN index).
 * - `grades (kind, user_id, created_at DESC, id)`: a scoped page (a teacher's pupils, one pupil) reads each person's
 *   newest results in the list's order; `grades (quiz_id, kind, quiz_version)` serves item analysis and the export's
 *   line items.
 */
export class QuizClassesAndGradePages1733810000000 implements MigrationInterface {
  name = 'QuizClassesAndGradePages1733810000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE quizzes ADD COLUMN class_ids uuid[] NOT NULL DEFAULT '{}'`);
    await queryRunner.query(`CREATE INDEX quizzes_class_ids_idx ON quizzes USING gin (class_ids)`);
    await queryRunner.query(
      `CREATE INDEX quizzes_unassigned_idx ON quizzes (kind, created_at DESC, id) WHERE class_ids = '{}'`,
    );
    await queryRunner.query(
      `CREATE INDEX grades_kind_user_created_idx ON grades (kind, user_id, created_at DESC, id)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX grades_kind_user_created_idx`);
    await queryRunner.query(`DROP INDEX quizzes_unassigned_idx`);
    await queryRunner.query(`DROP INDEX quizzes_class_ids_idx`);
    await queryRunner.query(`ALTER TABLE quizzes DROP COLUMN class_ids`);
  }
}

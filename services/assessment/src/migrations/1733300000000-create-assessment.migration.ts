import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Quizzes, results and accommodations (classroom-tools §3). Audio and text quizzes share one table (`kind`): the
 * same fields, and audio questions carry their `audioUrl` inside `questions`. A result keeps the questions as they
 * were answered (ADR 0019), so it needs no foreign key to its quiz and outlives the quiz's edits and deletion.
 */
export class CreateAssessment1733300000000 implements MigrationInterface {
  name = 'CreateAssessment1733300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE quizzes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        kind varchar(5) NOT NULL CHECK (kind IN ('audio', 'text')),
        title varchar(200) NOT NULL,
        description varchar(2000) NOT NULL DEFAULT '',
        max_attempts integer NOT NULL DEFAULT 1,
        audio_play_limit integer NULL,
        questions jsonb NOT NULL,
        created_by_id uuid NULL,
        created_by_name varchar(200) NOT NULL DEFAULT '',
        version integer NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX quizzes_kind_created_idx ON quizzes (kind, created_at DESC, id)`);
    await queryRunner.query(`
      CREATE TABLE grades (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        kind varchar(5) NOT NULL CHECK (kind IN ('audio', 'text')),
        quiz_id uuid NOT NULL,
        user_id uuid NOT NULL,
        user_name varchar(200) NOT NULL,
        quiz_title varchar(200) NOT NULL,
        score integer NOT NULL,
        correct_answers integer NOT NULL,
        total_questions integer NOT NULL,
        passed boolean NOT NULL,
        user_answers jsonb NOT NULL,
        questions jsonb NOT NULL,
        quiz_version integer NOT NULL,
        idempotency_key uuid NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX grades_idempotency_idx ON grades (user_id, idempotency_key) WHERE idempotency_key IS NOT NULL`,
    );
    await queryRunner.query(`CREATE INDEX grades_quiz_user_idx ON grades (quiz_id, user_id)`);
    await queryRunner.query(`CREATE INDEX grades_kind_created_idx ON grades (kind, created_at DESC, id)`);
    await queryRunner.query(`CREATE INDEX grades_user_idx ON grades (user_id)`);
    await queryRunner.query(`
      CREATE TABLE accommodations (
        quiz_id uuid NOT NULL REFERENCES quizzes (id) ON DELETE CASCADE,
        user_id uuid NOT NULL,
        extra_attempts integer NOT NULL CHECK (extra_attempts >= 0),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (quiz_id, user_id)
      )`);
    await queryRunner.query(`CREATE INDEX accommodations_user_idx ON accommodations (user_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE accommodations`);
    await queryRunner.query(`DROP TABLE grades`);
    await queryRunner.query(`DROP TABLE quizzes`);
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Audio lists, lesson plans and Google Slides (classroom-tools §3). Each item keeps its creator's id and name (for
 * rights and display); identity's events rename it, and a deleted creator leaves the item anonymised (ADR 0020):
 * `creator_id` NULL. The column limits repeat the contracts' length limits, so nothing longer is ever stored.
 */
export class CreateClassroom1733400000000 implements MigrationInterface {
  name = 'CreateClassroom1733400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE audio_lists (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        title varchar(200) NOT NULL,
        description varchar(2000) NOT NULL DEFAULT '',
        audio_files jsonb NOT NULL,
        creator_id uuid NULL,
        creator_name varchar(200) NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX audio_lists_created_idx ON audio_lists (created_at DESC, id)`);
    await queryRunner.query(`CREATE INDEX audio_lists_creator_idx ON audio_lists (creator_id)`);
    await queryRunner.query(`
      CREATE TABLE lesson_plans (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        title varchar(200) NOT NULL,
        teacher varchar(200) NOT NULL DEFAULT '',
        plan_date varchar(200) NOT NULL DEFAULT '',
        subject varchar(200) NOT NULL DEFAULT '',
        topic varchar(200) NOT NULL DEFAULT '',
        standards varchar(5000) NOT NULL DEFAULT '',
        i_can_statements varchar(5000) NOT NULL DEFAULT '',
        academic_vocabulary varchar(5000) NOT NULL DEFAULT '',
        dok_questions varchar(5000) NOT NULL DEFAULT '',
        warm_up jsonb NOT NULL,
        explore jsonb NOT NULL,
        explain jsonb NOT NULL,
        elaborate jsonb NOT NULL,
        evaluate jsonb NOT NULL,
        total_time varchar(200) NOT NULL DEFAULT '90 mins',
        evaluation varchar(5000) NOT NULL DEFAULT '',
        reflection varchar(5000) NOT NULL DEFAULT '',
        creator_id uuid NULL,
        creator_name varchar(200) NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX lesson_plans_created_idx ON lesson_plans (created_at DESC, id)`);
    await queryRunner.query(`CREATE INDEX lesson_plans_creator_idx ON lesson_plans (creator_id)`);
    await queryRunner.query(`
      CREATE TABLE google_slides (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        title varchar(200) NOT NULL,
        description varchar(2000) NOT NULL DEFAULT '',
        google_slides_url varchar(2048) NOT NULL,
        embed_url varchar(2048) NOT NULL DEFAULT '',
        is_public boolean NOT NULL DEFAULT true,
        category varchar(100) NOT NULL DEFAULT '',
        tags jsonb NOT NULL DEFAULT '[]'::jsonb,
        creator_id uuid NULL,
        creator_name varchar(200) NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX google_slides_created_idx ON google_slides (created_at DESC, id)`);
    await queryRunner.query(
      `CREATE INDEX google_slides_public_idx ON google_slides (created_at DESC, id) WHERE is_public`,
    );
    await queryRunner.query(`CREATE INDEX google_slides_creator_idx ON google_slides (creator_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE google_slides`);
    await queryRunner.query(`DROP TABLE lesson_plans`);
    await queryRunner.query(`DROP TABLE audio_lists`);
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Chatrooms (spec §3). Names are unqualified: the connection's search_path puts them in chat's own schema (or a
 * test's throwaway one). The invitees are ids of identity's users, kept as an array: the room is read and
 * written whole, and a GIN index answers "the rooms this person is invited to" and a deleted user's removal.
 */
export class CreateChatrooms1733200000000 implements MigrationInterface {
  name = 'CreateChatrooms1733200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE chatrooms (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name varchar(100) NOT NULL,
        description varchar(500) NOT NULL DEFAULT '',
        invited_user_ids uuid[] NOT NULL DEFAULT '{}',
        is_active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX chatrooms_invited_idx ON chatrooms USING gin (invited_user_ids)`);
    await queryRunner.query(`CREATE INDEX chatrooms_created_idx ON chatrooms (created_at DESC, id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE chatrooms`);
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Signed-out sessions, kept until their absolute lifetime ends, so a restart of the shared store cannot bring a
 * signed-out session back (ADR 0011). No user id: the session id is all a guard needs.
 */
export class CreateRevokedSessions1733000000000 implements MigrationInterface {
  name = 'CreateRevokedSessions1733000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE revoked_sessions (
        sid varchar(64) PRIMARY KEY,
        expires_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX revoked_sessions_expires_at ON revoked_sessions (expires_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE revoked_sessions`);
  }
}

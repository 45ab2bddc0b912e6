import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log of administrative actions (ADR 0021): append-only. A trigger refuses UPDATE, DELETE and
 * TRUNCATE for every role, the service's own included, so no code path (and no one with the service's
 * credentials) can rewrite history; there is no route that changes or removes an entry either. `id` is the
 * record's id (for another service's action, its event id), so a record arrives once.
 */
export class CreateAuditLog1733500000000 implements MigrationInterface {
  name = 'CreateAuditLog1733500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE audit_log (
        id uuid PRIMARY KEY,
        service varchar(20) NOT NULL,
        actor_id uuid NOT NULL,
        actor_name varchar(200) NOT NULL,
        action varchar(40) NOT NULL,
        target_type varchar(20) NOT NULL,
        target_id uuid NOT NULL,
        target_label varchar(300) NOT NULL DEFAULT '',
        details jsonb NOT NULL DEFAULT '{}'::jsonb,
        ip varchar(64),
        at timestamptz NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX audit_log_at_idx ON audit_log (at DESC, id DESC)`);
    await queryRunner.query(`CREATE INDEX audit_log_actor_idx ON audit_log (actor_id, at DESC)`);
    await queryRunner.query(`CREATE INDEX audit_log_target_idx ON audit_log (target_id, at DESC)`);
    await queryRunner.query(`CREATE INDEX audit_log_action_idx ON audit_log (action, at DESC)`);
    await queryRunner.query(`
      CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
      END
      $$`);
    await queryRunner.query(`
      CREATE TRIGGER audit_log_no_update_delete BEFORE UPDATE OR DELETE ON audit_log
        FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`);
    await queryRunner.query(`
      CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
        FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE audit_log`);
    await queryRunner.query(`DROP FUNCTION audit_log_append_only()`);
  }
}

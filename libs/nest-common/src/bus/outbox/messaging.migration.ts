import type { MigrationInterface, QueryRunner } from 'typeorm';
import { assertSchemaName } from './messaging-tables';

/** Early timestamp so it sorts before a service's own migrations; it depends on none of them. */
const MIGRATION_NAME = 'MessagingTables1700000000000';

/**
 * The outbox and inbox tables in `schema`. A service adds the returned class to its DataSource's migrations;
 * the name is the same in every service, which is fine because each schema has its own migrations table.
 */
export function createMessagingMigration(schema: string): new () => MigrationInterface {
  assertSchemaName(schema);
  const s = `"${schema}"`;
  return class MessagingTables1700000000000 implements MigrationInterface {
    name = MIGRATION_NAME;

    async up(queryRunner: QueryRunner): Promise<void> {
      await queryRunner.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
      await queryRunner.query(`
        CREATE TABLE ${s}."outbox" (
          "id" uuid PRIMARY KEY,
          "seq" bigint GENERATED ALWAYS AS IDENTITY,
          "subject" text NOT NULL,
          "payload" jsonb NOT NULL,
          "headers" jsonb NOT NULL DEFAULT '{}'::jsonb,
          "created_at" timestamptz NOT NULL DEFAULT now(),
          "published_at" timestamptz,
          "attempts" integer NOT NULL DEFAULT 0,
          "last_error" text
        )`);
      // The relay scans only what is pending; cleanup scans only what is done.
      await queryRunner.query(
        `CREATE INDEX "outbox_pending_idx" ON ${s}."outbox" ("seq") WHERE "published_at" IS NULL`,
      );
      await queryRunner.query(
        `CREATE INDEX "outbox_published_idx" ON ${s}."outbox" ("published_at") WHERE "published_at" IS NOT NULL`,
      );
      await queryRunner.query(`
        CREATE TABLE ${s}."inbox" (
          "consumer" varchar(200) NOT NULL,
          "message_id" varchar(200) NOT NULL,
          "processed_at" timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY ("consumer", "message_id")
        )`);
      await queryRunner.query(`CREATE INDEX "inbox_processed_idx" ON ${s}."inbox" ("processed_at")`);
    }

    async down(queryRunner: QueryRunner): Promise<void> {
      await queryRunner.query(`DROP TABLE IF EXISTS ${s}."inbox"`);
      await queryRunner.query(`DROP TABLE IF EXISTS ${s}."outbox"`);
    }
  };
}

/**
 * The relay's claim (ADR 0022's fault suite, issue 12's burst): a round claims its rows with `claimed_until` in one
 * statement and marks them published in another, instead of holding a transaction open while the bus answers.
 */
export function createOutboxClaimMigration(schema: string): new () => MigrationInterface {
  assertSchemaName(schema);
  const s = `"${schema}"`;
  return class OutboxClaim1700000000001 implements MigrationInterface {
    name = 'OutboxClaim1700000000001';

    async up(queryRunner: QueryRunner): Promise<void> {
      await queryRunner.query(
        `ALTER TABLE ${s}."outbox" ADD COLUMN IF NOT EXISTS "claimed_until" timestamptz`,
      );
    }

    async down(queryRunner: QueryRunner): Promise<void> {
      await queryRunner.query(`ALTER TABLE ${s}."outbox" DROP COLUMN IF EXISTS "claimed_until"`);
    }
  };
}

/** Every messaging migration of `schema`, in order: what a service's DataSource lists before its own. */
export function createMessagingMigrations(schema: string): (new () => MigrationInterface)[] {
  return [createMessagingMigration(schema), createOutboxClaimMigration(schema)];
}

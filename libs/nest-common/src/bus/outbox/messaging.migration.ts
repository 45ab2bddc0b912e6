import type { MigrationInterface, QueryRunner } from 'typeorm';
import { assertSchemaName, outboxChannel, outboxIdleLock } from './messaging-tables';

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

/**
 * `outbox_enqueue(subject, payload, headers, id)` in `schema` (ADR 0037): the one way to write an outbox row, from
 * `OutboxService.enqueue` and from a service's own SQL functions alike. It checks what the bus would refuse — the
 * subject's tokens, header names and values, as bus-rules.ts does — so a bad event fails its transaction instead
 * of blocking the relay, inserts the row, and notifies the schema's channel (`outboxChannel`) when a relay sleeps.
 * PostgreSQL delivers the notification when, and only when, the transaction commits, to every relay listening: the
 * relay is woken by the commit itself, whichever code path wrote. A notifying commit takes a lock every other
 * notifying commit of the database waits for (PostgreSQL queues notifications in commit order), so a burst of
 * notifying submissions commits one at a time: hence only when a relay sleeps, which it shows by holding the schema's
 * idle lock (`outboxIdleLock`). An awake relay looks at the outbox again before it sleeps, after every transaction
 * that skipped its notification (each holds the lock in shared mode to its end) has committed. Returns the row's id
 * (the bus message id), `id` when given, else a new one.
 */
export function createOutboxEnqueueMigration(schema: string): new () => MigrationInterface {
  assertSchemaName(schema);
  const s = `"${schema}"`;
  const channel = outboxChannel(schema);
  const idleLock = outboxIdleLock(schema);
  const signature = `${s}."outbox_enqueue"(text, jsonb, jsonb, uuid)`;
  return class OutboxEnqueue1700000000002 implements MigrationInterface {
    name = 'OutboxEnqueue1700000000002';

    async up(queryRunner: QueryRunner): Promise<void> {
      // The patterns are bus-rules.ts's: TOKEN (no white space, '.', '*' or '>'), HEADER_NAME (an RFC 7230 token;
      // \x60 is the back quote), HEADER_VALUE (no CR or LF), and no `nats-` header (JetStream's own).
      await queryRunner.query(`
        CREATE FUNCTION ${s}."outbox_enqueue"(
          p_subject text, p_payload jsonb, p_headers jsonb DEFAULT '{}'::jsonb, p_id uuid DEFAULT NULL
        ) RETURNS uuid
        LANGUAGE plpgsql VOLATILE AS $fn$
        DECLARE
          v_id uuid := COALESCE(p_id, gen_random_uuid());
          v_headers jsonb := COALESCE(p_headers, '{}'::jsonb);
          h record;
        BEGIN
          IF p_subject IS NULL OR p_subject !~ '^[^\\s.*>]+(\\.[^\\s.*>]+)*$' THEN
            RAISE EXCEPTION 'invalid subject "%": use dot-separated tokens without spaces or wildcards', p_subject
              USING ERRCODE = 'invalid_parameter_value';
          END IF;
          IF jsonb_typeof(v_headers) <> 'object' THEN
            RAISE EXCEPTION 'invalid headers: a JSON object of string values' USING ERRCODE = 'invalid_parameter_value';
          END IF;
          FOR h IN SELECT e.key, e.value FROM jsonb_each(v_headers) AS e LOOP
            IF h.key !~ '^[!#$%&''*+.^_\\x60|~0-9A-Za-z-]+$' OR lower(h.key) LIKE 'nats-%' THEN
              RAISE EXCEPTION 'invalid header name "%"', h.key USING ERRCODE = 'invalid_parameter_value';
            END IF;
            IF jsonb_typeof(h.value) <> 'string' OR (h.value #>> '{}') ~ '[\\r\\n]' THEN
              RAISE EXCEPTION 'invalid value for header "%"', h.key USING ERRCODE = 'invalid_parameter_value';
            END IF;
          END LOOP;
          INSERT INTO ${s}."outbox" ("id", "subject", "payload", "headers")
            VALUES (v_id, p_subject, COALESCE(p_payload, 'null'::jsonb), v_headers);
          -- A relay asleep holds the idle lock: notify it. None does: every relay is awake, and the shared lock,
          -- held to this transaction's end, keeps any from going to sleep before it has seen this row.
          IF NOT pg_try_advisory_xact_lock_shared(hashtextextended('${idleLock}', 0)) THEN
            PERFORM pg_notify('${channel}', '');
          END IF;
          RETURN v_id;
        END;
        $fn$`);
      await queryRunner.query(
        `COMMENT ON FUNCTION ${signature} IS 'The one way to write an outbox row (ADR 0037): checks the event, inserts it, nudges the relays at commit'`,
      );
    }

    async down(queryRunner: QueryRunner): Promise<void> {
      await queryRunner.query(`DROP FUNCTION IF EXISTS ${signature}`);
    }
  };
}

/** Every messaging migration of `schema`, in order: what a service's DataSource lists before its own. */
export function createMessagingMigrations(schema: string): (new () => MigrationInterface)[] {
  return [
    createMessagingMigration(schema),
    createOutboxClaimMigration(schema),
    createOutboxEnqueueMigration(schema),
  ];
}

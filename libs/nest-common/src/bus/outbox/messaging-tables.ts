import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** Schema names end up in SQL text (DDL cannot take parameters), so only plain lower-case identifiers pass. */
export function assertSchemaName(schema: string): void {
  if (!IDENTIFIER.test(schema)) throw new Error(`invalid schema name "${schema}"`);
}

/** The schema the messaging SQL names: the explicit one when given, else the DataSource's `schema` option. */
export function messagingSchema(dataSource: DataSource, schema?: string): string | undefined {
  const resolved = schema ?? (dataSource.options as { schema?: string }).schema;
  if (resolved !== undefined) assertSchemaName(resolved);
  return resolved;
}

/**
 * `"schema"."table"` for raw SQL: the explicit schema when given, else the DataSource's `schema` option,
 * else unqualified (the connection's search_path decides).
 */
export function messagingTable(dataSource: DataSource, table: 'outbox' | 'inbox', schema?: string): string {
  const resolved = messagingSchema(dataSource, schema);
  return resolved === undefined ? `"${table}"` : `"${resolved}"."${table}"`;
}

/** `"schema"."outbox_enqueue"`, the one way to write an outbox row (ADR 0037); qualified as `messagingTable`. */
export function outboxEnqueueFunction(dataSource: DataSource, schema?: string): string {
  const resolved = messagingSchema(dataSource, schema);
  return resolved === undefined ? `"outbox_enqueue"` : `"${resolved}"."outbox_enqueue"`;
}

/**
 * The notification channel on which `outbox_enqueue` tells the relays of `schema` that a row was committed.
 * Hashed, because a channel name is at most 63 bytes and a schema name can be nearly that long.
 */
export function outboxChannel(schema: string): string {
  assertSchemaName(schema);
  return `outbox_${createHash('md5').update(schema).digest('hex')}`;
}

/**
 * The name of the advisory lock (hashed to a key by `hashtextextended(name, 0)`) a relay of `schema` holds while it
 * sleeps; `outbox_enqueue` notifies only when it cannot take the lock in shared mode (ADR 0037).
 */
export function outboxIdleLock(schema: string): string {
  assertSchemaName(schema);
  return `outbox-relay-idle:${schema}`;
}

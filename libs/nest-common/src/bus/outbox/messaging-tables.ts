import type { DataSource } from 'typeorm';

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** Schema names end up in SQL text (DDL cannot take parameters), so only plain lower-case identifiers pass. */
export function assertSchemaName(schema: string): void {
  if (!IDENTIFIER.test(schema)) throw new Error(`invalid schema name "${schema}"`);
}

/**
 * `"schema"."table"` for raw SQL: the explicit schema when given, else the DataSource's `schema` option,
 * else unqualified (the connection's search_path decides).
 */
export function messagingTable(dataSource: DataSource, table: 'outbox' | 'inbox', schema?: string): string {
  const resolved = schema ?? (dataSource.options as { schema?: string }).schema;
  if (resolved === undefined) return `"${table}"`;
  assertSchemaName(resolved);
  return `"${resolved}"."${table}"`;
}

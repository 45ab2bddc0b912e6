import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { Client } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import {
  FORMAT,
  FORMAT_VERSION,
  MAGIC,
  frame,
  type BackupHeader,
  type BackupSchema,
  type BackupTrailer,
} from './format';

export interface BackupResult {
  file: string;
  bytes: number;
  header: BackupHeader;
  ms: number;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** TypeORM's own bookkeeping: recorded in the header (`migrations`), recreated by the restore's migrations. */
export const MIGRATIONS_TABLE = 'migrations';

/**
 * Writes one consistent snapshot of the given schemas to `file` (ADR 0044): one REPEATABLE READ READ ONLY
 * transaction on one connection, every table streamed through COPY into gzip, never a table in memory. The file is
 * written beside its name (`<file>.partial`) and renamed when complete, so a failed backup leaves no file that
 * looks whole.
 */
export async function backupDatabase(
  databaseUrl: string,
  schemas: readonly string[],
  file: string,
  source: string,
): Promise<BackupResult> {
  const started = Date.now();
  const client = new Client({ connectionString: databaseUrl, application_name: 'district-backup' });
  await client.connect();
  const partial = `${file}.partial`;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    // The snapshot is taken by the first query: everything below reads the same moment.
    const server = (await client.query<{ server_version: string }>('SHOW server_version')).rows[0]
      .server_version;
    const header: BackupHeader = {
      format: FORMAT,
      version: FORMAT_VERSION,
      createdAt: new Date().toISOString(),
      server,
      source,
      schemas: {},
    };
    const present = new Set(
      (
        await client.query<{ nspname: string }>(
          'SELECT nspname FROM pg_namespace WHERE nspname = ANY($1::text[])',
          [schemas],
        )
      ).rows.map((r) => r.nspname),
    );
    const missing = schemas.filter((s) => !present.has(s));
    if (missing.length)
      throw new Error(
        `The database has no schema for ${missing.join(', ')}: start the site once against it (its services create ` +
          'their schemas), or check DATABASE_URL.',
      );
    for (const schema of schemas) header.schemas[schema] = await describeSchema(client, schema);

    const hash = createHash('sha256');
    let frames = 0;
    const counted = (buffer: Buffer) => {
      hash.update(buffer);
      frames += 1;
      return buffer;
    };
    async function* frames_(): AsyncGenerator<Buffer> {
      yield counted(frame('M', MAGIC));
      yield counted(frame('H', JSON.stringify(header)));
      for (const [schema, described] of Object.entries(header.schemas)) {
        for (const table of described.tables) {
          yield counted(frame('T', JSON.stringify({ schema, table: table.name })));
          const columns = table.columns.map(ident).join(', ');
          const stream = client.query(
            copyTo(`COPY ${ident(schema)}.${ident(table.name)} (${columns}) TO STDOUT`),
          );
          for await (const chunk of stream as AsyncIterable<Buffer>) yield counted(frame('D', chunk));
          if (stream.rowCount !== table.rows)
            throw new Error(
              `${schema}.${table.name}: counted ${table.rows} rows, copied ${stream.rowCount} (not one snapshot?)`,
            );
          yield counted(frame('E', JSON.stringify({ rows: stream.rowCount })));
        }
      }
      const trailer: BackupTrailer = { sha256: hash.digest('hex'), frames };
      yield frame('Z', JSON.stringify(trailer));
    }
    const out = createWriteStream(partial, { mode: 0o600 });
    await once(out, 'open');
    await pipeline(frames_(), createGzip({ level: 6 }), out);
    await client.query('COMMIT');
    await rename(partial, file);
    return { file, bytes: out.bytesWritten, header, ms: Date.now() - started };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** One schema's migrations, tables (with their copied columns and row counts) and sequences, in the snapshot. */
async function describeSchema(client: Client, schema: string): Promise<BackupSchema> {
  const migrations = (
    await client.query<{ name: string }>(`SELECT name FROM ${ident(schema)}.${MIGRATIONS_TABLE} ORDER BY id`)
  ).rows.map((r) => r.name);
  const tables = (
    await client.query<{ name: string; columns: string[] }>(
      `SELECT c.relname AS name,
              array_agg(a.attname::text ORDER BY a.attnum) AS columns
         FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace
         JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
        WHERE n.nspname = $1 AND c.relkind = 'r' AND c.relname <> $2
        GROUP BY c.relname
        ORDER BY c.relname`,
      [schema, MIGRATIONS_TABLE],
    )
  ).rows;
  const described: BackupSchema = { migrations, tables: [], sequences: [] };
  // Parents before the tables whose foreign keys point at them, so a restore loads the file in one pass with its
  // foreign keys checked.
  for (const table of await parentsFirst(client, schema, tables)) {
    const { rows } = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM ${ident(schema)}.${ident(table.name)}`,
    );
    described.tables.push({ name: table.name, columns: table.columns, rows: Number(rows[0].n) });
  }
  const sequences = (
    await client.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relkind = 'S' ORDER BY c.relname`,
      [schema],
    )
  ).rows;
  for (const { name } of sequences) {
    // Sequences are not transactional: this reads their value now, at or after the snapshot; a restore that
    // sets them there leaves a gap at most, never a number given twice.
    const { rows } = await client.query<{ last_value: string; is_called: boolean }>(
      `SELECT last_value::text, is_called FROM ${ident(schema)}.${ident(name)}`,
    );
    described.sequences.push({ name, lastValue: rows[0].last_value, isCalled: rows[0].is_called });
  }
  return described;
}

async function parentsFirst<T extends { name: string }>(
  client: Client,
  schema: string,
  tables: T[],
): Promise<T[]> {
  const edges = (
    await client.query<{ child: string; parent: string; parent_schema: string }>(
      `SELECT cc.relname AS child, pc.relname AS parent, pn.nspname AS parent_schema
         FROM pg_constraint k
         JOIN pg_class cc ON cc.oid = k.conrelid JOIN pg_namespace cn ON cn.oid = cc.relnamespace
         JOIN pg_class pc ON pc.oid = k.confrelid JOIN pg_namespace pn ON pn.oid = pc.relnamespace
        WHERE k.contype = 'f' AND cn.nspname = $1 AND k.conrelid <> k.confrelid`,
      [schema],
    )
  ).rows;
  const across = edges.find((e) => e.parent_schema !== schema);
  if (across)
    throw new Error(
      `${schema}.${across.child} refers to ${across.parent_schema}.${across.parent}: schemas must stand alone`,
    );
  const byName = new Map(tables.map((t) => [t.name, t]));
  const order: T[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting')
      throw new Error(`${schema}: foreign keys form a cycle through ${name}`);
    state.set(name, 'visiting');
    for (const e of edges) if (e.child === name) visit(e.parent);
    state.set(name, 'done');
    const table = byName.get(name);
    if (table) order.push(table);
  };
  for (const t of tables) visit(t.name);
  return order;
}

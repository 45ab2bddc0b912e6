import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { Client } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { MIGRATIONS_TABLE } from './backup';
import {
  BackupFileError,
  FORMAT,
  FORMAT_VERSION,
  MAGIC,
  json,
  readFrames,
  type BackupHeader,
  type BackupTrailer,
  type Frame,
} from './format';

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The frames of a backup file, unzipped; a gzip error (a cut or damaged file) becomes a BackupFileError. */
async function* framesOf(file: string): AsyncGenerator<Frame & { digest?: string }> {
  const gunzip = createGunzip();
  const source = createReadStream(file).pipe(gunzip);
  try {
    yield* readFrames(source as AsyncIterable<Buffer>);
  } catch (error) {
    if (error instanceof BackupFileError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'Z_DATA_ERROR' && /header check/.test((error as Error).message))
      throw new BackupFileError('it is not a backup file (not gzip)');
    if (code === 'Z_BUF_ERROR' || code === 'Z_DATA_ERROR' || code === 'Z_STREAM_ERROR')
      throw new BackupFileError(`the file is cut short or damaged (${(error as Error).message})`);
    throw error;
  } finally {
    source.destroy();
  }
}

/**
 * Reads the whole file once without touching any database: the frames in order, every table's rows as the header
 * counted them, and the trailer's SHA-256 over all of it. Answers the header; throws a BackupFileError naming what
 * is wrong.
 */
export async function verifyBackup(file: string): Promise<BackupHeader> {
  await stat(file).catch(() => {
    throw new BackupFileError(`there is no file ${file}`);
  });
  let header: BackupHeader | undefined;
  let expected: Array<{ schema: string; table: string; rows: number }> = [];
  let current: { schema: string; table: string; rows: number } | undefined;
  let index = 0;
  for await (const f of framesOf(file)) {
    if (index === 0) {
      if (f.kind !== 'M' || f.payload.toString('utf8') !== MAGIC) {
        const said = f.kind === 'M' ? f.payload.toString('utf8') : '';
        throw new BackupFileError(
          said.startsWith(FORMAT)
            ? `it is a backup of format "${said}"; this version reads "${MAGIC}"`
            : 'it is not a backup file',
        );
      }
    } else if (index === 1) {
      if (f.kind !== 'H') throw new BackupFileError('it has no header');
      header = json<BackupHeader>(f.payload);
      if (header.format !== FORMAT || header.version !== FORMAT_VERSION)
        throw new BackupFileError('its header is not of this format');
      expected = Object.entries(header.schemas).flatMap(([schema, s]) =>
        s.tables.map((t) => ({ schema, table: t.name, rows: t.rows })),
      );
    } else if (f.kind === 'T') {
      const { schema, table } = json<{ schema: string; table: string }>(f.payload);
      const next = expected.shift();
      if (current || !next || next.schema !== schema || next.table !== table)
        throw new BackupFileError(`table ${schema}.${table} is not where the header lists it`);
      current = next;
    } else if (f.kind === 'D') {
      if (!current) throw new BackupFileError('data outside a table');
    } else if (f.kind === 'E') {
      const { rows } = json<{ rows: number }>(f.payload);
      if (!current || rows !== current.rows)
        throw new BackupFileError(
          `table ${current?.schema}.${current?.table} holds other rows than its header says`,
        );
      current = undefined;
    } else if (f.kind === 'Z') {
      const trailer = json<BackupTrailer>(f.payload);
      if (trailer.sha256 !== f.digest || trailer.frames !== index)
        throw new BackupFileError('its checksum does not match its contents (damaged)');
      if (current || expected.length) throw new BackupFileError('tables the header lists are missing');
      if (!header) throw new BackupFileError('it has no header');
      return header;
    } else {
      throw new BackupFileError(`an unexpected frame "${f.kind}"`);
    }
    index += 1;
  }
  throw new BackupFileError('the file ends before its trailer (truncated)');
}

export class RestoreRefused extends Error {}

export interface RestoreOptions {
  /** Drops the service schemas first when the database already holds them. */
  force?: boolean;
  /** Creates the schemas by running the services' own migrations (the code's version) on this database. */
  migrate(databaseUrl: string): Promise<void>;
}

export interface RestoreResult {
  header: BackupHeader;
  rows: number;
  ms: number;
}

/**
 * Restores a file made by backupDatabase into a database without the service schemas (ADR 0044): the file is
 * checked whole first (nothing is written for a damaged one), the schemas are created by the code's own migrations
 * (a backup of other migrations is refused and the schemas created for it are dropped again), then every table is
 * filled through COPY in one transaction, user triggers off (the rows are already what they produced), foreign keys
 * checked, and the sequences set where they were.
 */
export async function restoreDatabase(
  databaseUrl: string,
  file: string,
  options: RestoreOptions,
): Promise<RestoreResult> {
  const started = Date.now();
  const header = await verifyBackup(file);
  const schemas = Object.keys(header.schemas);
  const client = new Client({ connectionString: databaseUrl, application_name: 'district-restore' });
  await client.connect();
  try {
    const occupied = (
      await client.query<{ nspname: string; relations: string }>(
        `SELECT n.nspname, count(c.oid)::text AS relations FROM pg_namespace n
           LEFT JOIN pg_class c ON c.relnamespace = n.oid
          WHERE n.nspname = ANY($1::text[]) GROUP BY n.nspname ORDER BY n.nspname`,
        [schemas],
      )
    ).rows;
    // The services connect as this user: another session of it is most likely a site still running here.
    const others = (
      await client.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM pg_stat_activity
          WHERE datname = current_database() AND usename = current_user AND pid <> pg_backend_pid()`,
      )
    ).rows[0].n;
    if (Number(others) > 0)
      throw new RestoreRefused(
        `${others} other connection(s) of this database user are open on the database (is the site still running ` +
          'against it?): stop every service, then restore. Nothing was written.',
      );
    if (occupied.length && !options.force)
      throw new RestoreRefused(
        `The database is not empty: it holds the schema(s) ${occupied.map((o) => o.nspname).join(', ')}. ` +
          'Restore into an empty database, or add --force to drop those schemas and everything in them first.',
      );
    if (occupied.length) {
      // All or none, and a service still running holds locks on its tables: wait a little, then say so.
      await client.query('BEGIN');
      try {
        await client.query(`SET LOCAL lock_timeout = '15s'`);
        for (const { nspname } of occupied) await client.query(`DROP SCHEMA ${ident(nspname)} CASCADE`);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        if ((error as { code?: string }).code === '55P03')
          throw new RestoreRefused(
            'The service schemas are in use (is the site still running against this database?): stop every ' +
              'service, then restore. Nothing was dropped.',
          );
        throw error;
      }
    }

    await options.migrate(databaseUrl);
    const differences: string[] = [];
    for (const schema of schemas) {
      const code = (
        await client.query<{ name: string }>(
          `SELECT name FROM ${ident(schema)}.${MIGRATIONS_TABLE} ORDER BY id`,
        )
      ).rows.map((r) => r.name);
      const backup = header.schemas[schema].migrations;
      const onlyBackup = backup.filter((m) => !code.includes(m));
      const onlyCode = code.filter((m) => !backup.includes(m));
      if (onlyBackup.length)
        differences.push(`${schema}: the backup has ${onlyBackup.join(', ')}, this code has not`);
      if (onlyCode.length)
        differences.push(`${schema}: this code has ${onlyCode.join(', ')}, the backup has not`);
    }
    if (differences.length) {
      for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS ${ident(schema)} CASCADE`);
      throw new RestoreRefused(
        `The backup was made by another version of the code (its migrations differ):\n  ${differences.join('\n  ')}\n` +
          'Restore it with the version that made it, then upgrade. The database was left empty.',
      );
    }

    let rows = 0;
    await client.query('BEGIN');
    try {
      const tables = schemas.flatMap((schema) =>
        header.schemas[schema].tables.map((t) => `${ident(schema)}.${ident(t.name)}`),
      );
      // The rows come as the triggers left them (grade_tallies included): user triggers stay off while they load.
      // Foreign keys are checked (internal triggers), so parents are loaded first.
      for (const table of tables) await client.query(`ALTER TABLE ${table} DISABLE TRIGGER USER`);
      // What the migrations wrote themselves (default settings, …) is in the backup as it was.
      if (tables.length) await client.query(`TRUNCATE ${tables.join(', ')}`);
      rows = await copyIn(client, file, header);
      for (const schema of schemas) {
        for (const seq of header.schemas[schema].sequences)
          await client.query(`SELECT setval($1::regclass, $2::bigint, $3)`, [
            `${ident(schema)}.${ident(seq.name)}`,
            seq.lastValue,
            seq.isCalled,
          ]);
      }
      for (const table of tables) await client.query(`ALTER TABLE ${table} ENABLE TRIGGER USER`);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
    return { header, rows, ms: Date.now() - started };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The file's tables into the database through COPY, in the file's order (parents before the tables that refer to them). */
async function copyIn(client: Client, file: string, header: BackupHeader): Promise<number> {
  let rows = 0;
  let stream: ReturnType<typeof copyFrom> | undefined;
  let current: { schema: string; table: string } | undefined;
  for await (const f of framesOf(file)) {
    if (f.kind === 'T') {
      const table = json<{ schema: string; table: string }>(f.payload);
      const columns = header.schemas[table.schema].tables
        .find((t) => t.name === table.table)!
        .columns.map(ident)
        .join(', ');
      current = table;
      stream = client.query(
        copyFrom(`COPY ${ident(table.schema)}.${ident(table.table)} (${columns}) FROM STDIN`),
      );
    } else if (f.kind === 'D' && stream) {
      if (!stream.write(f.payload)) await waitDrain(stream);
    } else if (f.kind === 'E' && stream && current) {
      const copying = stream;
      const done = new Promise<void>((resolve, reject) => {
        copying.once('finish', resolve);
        copying.once('error', reject);
      });
      copying.end();
      await done;
      const expected = json<{ rows: number }>(f.payload).rows;
      if (copying.rowCount !== expected)
        throw new Error(`${current.schema}.${current.table}: loaded ${copying.rowCount} rows of ${expected}`);
      rows += copying.rowCount;
      stream = undefined;
      current = undefined;
    }
  }
  return rows;
}

function waitDrain(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    stream.once('error', onError);
    stream.once('drain', () => {
      stream.removeListener('error', onError);
      resolve();
    });
  });
}

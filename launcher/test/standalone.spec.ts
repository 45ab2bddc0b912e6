import type { ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { cookieOf, jsonRequest, startOnFreePort, stopProcess } from './support/processes';

/**
 * Boots `--target=all` as `npm start` does on a fresh machine: no DATABASE_URL, so a real embedded
 * PostgreSQL is created under a new DATA_DIR; in-process bus and store; the demo district seeded.
 */
jest.setTimeout(180_000);

describe('standalone launcher', () => {
  let dataDir: string;
  let child: ChildProcess | undefined;
  let output: string[] = [];

  const start = async () => {
    output = [];
    const started = await startOnFreePort(
      'launcher/src/main.ts',
      (port) => ({
        DATA_DIR: dataDir,
        PORT: String(port),
        TARGET: '',
        DATABASE_URL: '',
        NATS_URL: '',
        REDIS_URL: '',
        WEB_DIST: path.join(dataDir, 'no-web'),
      }),
      output,
      async (url) => (await fetch(`${url}/readyz`)).status === 200,
      { host: 'localhost' },
    );
    child = started.child;
    return started.base;
  };

  const signIn = (url: string, email: string) =>
    fetch(`${url}/api/auth/login`, jsonRequest(url, 'POST', { email, password: 'demo1234' }));

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'district-standalone-'));
    // mkdtemp makes it private; as root the embedded server runs as `postgres` and must enter it.
    await chmod(dataDir, 0o755);
  });

  afterAll(async () => {
    await stopProcess(child);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('starts from scratch, prints the URL and demo sign-ins, and the demo admin signs in through the gateway', async () => {
    const url = await start();
    const banner = output.join('');
    expect(banner).toContain(`running at ${url}`);
    expect(banner).toContain('admin@demo.school');
    expect(banner).toContain('demo1234');

    const login = await signIn(url, 'admin@demo.school');
    expect(login.status).toBe(200);
    expect(await login.json()).toMatchObject({ email: 'admin@demo.school', isAdmin: true, approved: true });
    const cookie = cookieOf(login);
    expect(cookie).toMatch(/^district_session=/);

    const me = await fetch(`${url}/api/auth/me`, { headers: { cookie } });
    expect(me.status).toBe(200);
    // One 500-row page: the newest 100 are the demo district's pupils, seeded after the demo accounts.
    const users = await fetch(`${url}/api/users?limit=500`, { headers: { cookie } });
    expect(users.status).toBe(200);
    const emails = ((await users.json()) as Array<{ email: string }>).map((u) => u.email);
    expect(emails).toEqual(
      expect.arrayContaining([
        'admin@demo.school',
        'teacher@demo.school',
        'student@demo.school',
        'pending@demo.school',
      ]),
    );

    // Demo shortcuts exist in standalone, and never sign in an arbitrary email.
    expect(
      (await fetch(`${url}/api/auth/quick-login`, jsonRequest(url, 'POST', { type: 'student' }))).status,
    ).toBe(200);
    expect(
      (await fetch(`${url}/api/auth/quick-login`, jsonRequest(url, 'POST', { email: 'someone@else.org' })))
        .status,
    ).toBe(403);
    expect((await fetch(`${url}/api/nowhere`)).status).toBe(404);

    // chat through the gateway: the invite list is identity's answer (in-process bus), the demo room is seeded.
    const invitable = await fetch(`${url}/api/admin/chatrooms/invitable-users`, { headers: { cookie } });
    expect(invitable.status).toBe(200);
    const invitableNames = ((await invitable.json()) as Array<{ name: string }>).map((u) => u.name);
    expect(invitableNames).toEqual(expect.arrayContaining(['Sam Student', 'Taylor Teacher']));
    expect(invitableNames).not.toContain('Alex Admin');
    const student = cookieOf(await signIn(url, 'student@demo.school'));
    const rooms = await fetch(`${url}/api/chatrooms`, { headers: { cookie: student } });
    expect(rooms.status).toBe(200);
    expect(((await rooms.json()) as Array<{ name: string }>).map((r) => r.name)).toEqual([
      'Spanish Practice',
    ]);

    // The API reference merges every running service's OpenAPI document.
    const docs = (await (await fetch(`${url}/api/docs/openapi.json`)).json()) as {
      info: { description: string };
      paths: Record<string, Record<string, { 'x-access': string }>>;
    };
    expect(docs.paths['/api/auth/login'].post['x-access']).toBe('public');
    expect(docs.paths['/api/posts/public'].get['x-access']).toBe('public');
    expect(docs.paths['/api/posts/{id}'].put['x-access']).toBe('admin');
    // A class's teachers and school administrators make its chatrooms too (issue #36).
    expect(docs.paths['/api/admin/chatrooms'].post['x-access']).toBe('admin or class manager');
    expect(docs.info.description).not.toContain('Not running');
    const page = await fetch(`${url}/api/docs`);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('<code>/api/upload-image</code>');
  });

  it('reuses the data on a second start and does not duplicate the seed', async () => {
    await stopProcess(child);
    const url = await start();
    const cookie = cookieOf(await signIn(url, 'admin@demo.school'));
    const users = (await (await fetch(`${url}/api/users`, { headers: { cookie } })).json()) as Array<{
      email: string;
    }>;
    const demo = users.filter((u) => u.email.endsWith('@demo.school'));
    expect(demo.length).toBeGreaterThanOrEqual(4);
    expect(new Set(demo.map((u) => u.email)).size).toBe(demo.length);
  });
});

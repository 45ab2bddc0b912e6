import type { ChildProcess } from 'node:child_process';
import http, { type OutgoingHttpHeaders } from 'node:http';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { startOnFreePort, stopProcess, waitFor } from './support/processes';

/**
 * `--target=all` for real (the gateway and every service in one process), logging at info: the gateway hands
 * requests to the services without a loopback hop (ADR 0016). One access-log line per request; the services'
 * per-address limits (identity's sign-in throttle, content's comment limit) see the client the gateway decided,
 * here behind an "ingress" at 127.0.0.2 that TRUSTED_PROXIES does not list. On this machine's PostgreSQL rather
 * than the embedded one (test/standalone.spec.ts covers that), so it starts in seconds.
 */
jest.setTimeout(180_000);

const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const database = `district_request_path_${Date.now().toString(36)}`;
const databaseUrl = (() => {
  const u = new URL(adminUrl);
  u.pathname = `/${database}`;
  return u.toString();
})();

interface Answer {
  status: number;
  cookie: string;
  body: string;
}

/** A request from the "ingress" (127.0.0.2), saying which client it forwards. */
function viaIngress(
  base: string,
  pathname: string,
  client: string,
  options: { method?: string; body?: unknown; cookie?: string } = {},
): Promise<Answer> {
  const url = new URL(base);
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: OutgoingHttpHeaders = { 'X-Forwarded-For': client, Origin: base };
  if (payload !== undefined)
    Object.assign(headers, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(payload),
    });
  if (options.cookie) headers.Cookie = options.cookie;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: pathname,
        method: options.method ?? 'GET',
        headers,
        localAddress: '127.0.0.2',
        agent: false,
      },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            cookie: res.headers['set-cookie']?.[0]?.split(';')[0] ?? '',
            body,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('standalone request path', () => {
  const output: string[] = [];
  let child: ChildProcess | undefined;
  let dataDir: string;
  let base: string;

  const logLines = () =>
    output
      .join('')
      .split('\n')
      .filter((l) => l.startsWith('{'));
  const requestLines = (requestId: string) =>
    logLines().filter((l) => l.includes(`"requestId":"${requestId}"`) && l.includes('"msg":"request"'));

  beforeAll(async () => {
    const admin = new Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${database}"`);
    await admin.end();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'district-request-path-'));
    await chmod(dataDir, 0o755);
    ({ child, base } = await startOnFreePort(
      'launcher/src/main.ts',
      (port) => ({
        TARGET: 'all',
        DATABASE_URL: databaseUrl,
        NATS_URL: '',
        REDIS_URL: '',
        DATA_DIR: dataDir,
        PORT: String(port),
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        WEB_DIST: path.join(dataDir, 'no-web'),
        LOG_LEVEL: 'info',
        GATEWAY_TRUST_PROXY: 'true',
        LOGIN_MAX_FAILURES_PER_ADDRESS: '2',
        CONTENT_COMMENT_RATE_PER_ADDRESS: '1',
      }),
      output,
      async (url) => (await fetch(`${url}/readyz`)).status === 200,
    ));
  });

  afterAll(async () => {
    await stopProcess(child);
    const admin = new Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('writes exactly one access-log line per proxied request, with no repeated key', async () => {
    const page = await fetch(`${base}/api/posts/public?limit=20`, {
      headers: { 'X-Request-Id': 'standalone-one-line-01' },
    });
    expect(page.status).toBe(200);
    const me = await fetch(`${base}/api/auth/me`, { headers: { 'X-Request-Id': 'standalone-one-line-02' } });
    expect(me.status).toBe(401);
    await waitFor(async () => requestLines('standalone-one-line-02').length > 0, 'the access lines', 5_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const [id, target] of [
      ['standalone-one-line-01', 'content'],
      ['standalone-one-line-02', 'identity'],
    ]) {
      const lines = requestLines(id);
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0])).toMatchObject({ service: 'gateway', target, upstream: 'in-process' });
      const keys = [...lines[0].matchAll(/"([^"]+)":/g)].map((m) => m[1]);
      expect(keys.length).toBe(new Set(keys).size);
    }
  });

  it('identity’s sign-in throttle counts per client address the gateway decided, not per ingress', async () => {
    const wrong = { email: 'admin@demo.school', password: 'not the password' };
    const fromA = () => viaIngress(base, '/api/auth/login', '198.51.100.10', { method: 'POST', body: wrong });
    expect((await fromA()).status).toBe(401);
    expect((await fromA()).status).toBe(401);
    expect((await fromA()).status).toBe(429);
    // Another client behind the same ingress is not held back by the first one's failures.
    expect(
      (await viaIngress(base, '/api/auth/login', '198.51.100.11', { method: 'POST', body: wrong })).status,
    ).toBe(401);
  });

  it('content’s per-address comment limit counts per client address the gateway decided', async () => {
    const signIn = await viaIngress(base, '/api/auth/login', '198.51.100.20', {
      method: 'POST',
      body: { email: 'student@demo.school', password: 'demo1234' },
    });
    expect(signIn.status).toBe(200);
    const posts = JSON.parse((await viaIngress(base, '/api/posts/public?limit=1', '198.51.100.20')).body) as
      { data?: Array<{ id: string }> } | Array<{ id: string }>;
    const postId = (Array.isArray(posts) ? posts : (posts.data ?? []))[0]?.id;
    expect(postId).toBeDefined();
    const comment = (client: string, n: number) =>
      viaIngress(base, `/api/posts/${postId}/comments`, client, {
        method: 'POST',
        cookie: signIn.cookie,
        body: { content: `Question ${n}` },
      });
    expect((await comment('198.51.100.21', 1)).status).toBe(201);
    expect((await comment('198.51.100.21', 2)).status).toBe(429);
    expect((await comment('198.51.100.22', 3)).status).toBe(201);
  });
});

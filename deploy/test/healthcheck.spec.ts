import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const SCRIPT = path.join(__dirname, '../healthcheck.mjs');

function probe(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCRIPT, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('deploy/healthcheck.mjs against a real local server', () => {
  let server: http.Server;
  let port: string;
  const seen: string[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push(req.url ?? '');
      if (req.url === '/healthz') return void res.end('{"status":"ok"}');
      if (req.url === '/readyz') {
        res.statusCode = 503;
        return void res.end('{"status":"not ready"}');
      }
      // /slow never answers, to exercise the timeout.
      if (req.url === '/slow') return;
      res.statusCode = 404;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = String((server.address() as AddressInfo).port);
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('exits 0 when the path answers 2xx, probing /healthz by default on PORT', async () => {
    expect(await probe([], { PORT: port })).toEqual({ code: 0, stderr: '' });
    expect(seen).toContain('/healthz');
  });

  it('exits 1 and says why when the path answers an error status', async () => {
    const result = await probe(['/readyz'], { PORT: port });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('/readyz answered 503');
  });

  it('exits 1 when the server does not answer in time', async () => {
    const result = await probe(['/slow'], { PORT: port, HEALTHCHECK_TIMEOUT_MS: '200' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('did not answer within 200 ms');
  });

  it('exits 1 when nothing listens', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const freePort = String((closed.address() as AddressInfo).port);
    await new Promise((resolve) => closed.close(resolve));
    const result = await probe([], { PORT: freePort });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('ECONNREFUSED');
  });

  it('exits 2 on a path that is not absolute or a PORT that is not a port', async () => {
    expect((await probe(['healthz'], { PORT: port })).code).toBe(2);
    expect((await probe([], { PORT: 'http' })).code).toBe(2);
  });
});

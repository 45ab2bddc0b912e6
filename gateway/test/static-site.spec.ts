import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { startGateway, type Harness } from './support/gateway-harness';
import { rawRequest as request } from '@district/nest-common/testing';

const INDEX =
  '<!doctype html><html><head><script type="module" src="/assets/index-4f9a1c.js"></script></head><body><div id="root"></div></body></html>';
const APP_JS = 'console.log("the district learning app");'.repeat(50);

let workDir: string;
let site: string;
let harness: Harness;

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'gateway-static-'));
  site = path.join(workDir, 'dist');
  await mkdir(path.join(site, 'assets'), { recursive: true });
  await mkdir(path.join(site, 'sounds', 'spanish'), { recursive: true });
  await writeFile(path.join(site, 'index.html'), INDEX);
  await writeFile(path.join(site, 'assets', 'index-4f9a1c.js'), APP_JS);
  await writeFile(path.join(site, 'assets', 'index-4f9a1c.js.br'), brotliCompressSync(APP_JS));
  await writeFile(path.join(site, 'assets', 'index-4f9a1c.js.gz'), gzipSync(APP_JS));
  await writeFile(path.join(site, 'assets', 'style-77aa.css'), 'body{margin:0}');
  await writeFile(path.join(site, 'favicon.ico'), Buffer.from([0, 0, 1, 0]));
  await writeFile(path.join(site, 'sounds', 'spanish', 'a.mp3'), Buffer.from('0123456789'));
  await writeFile(path.join(site, '.env'), 'SECRET=1');
  // A file next to the site that traversal would reach.
  await writeFile(path.join(workDir, 'secret.txt'), 'do not serve');
  harness = await startGateway({ upstreams: {}, staticDir: site });
});

afterAll(async () => {
  await harness.close();
  await rm(workDir, { recursive: true, force: true });
});

describe('the SPA', () => {
  it('serves index.html at / and for every client-side route, never cached without revalidation', async () => {
    for (const route of [
      '/',
      '/blog/fractions-made-easy',
      '/admin/quiz-grades-dashboard',
      '/educational-tools?x=1',
    ]) {
      const res = await request(harness.base, route);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.text).toBe(INDEX);
    }
  });

  it('serves hashed assets with an immutable one-year cache', async () => {
    const res = await request(harness.base, '/assets/style-77aa.css');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.text).toBe('body{margin:0}');
  });

  it('serves other files with a short cache', async () => {
    const res = await request(harness.base, '/favicon.ico');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/x-icon');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
  });

  it('answers a missing hashed asset with 404 rather than the HTML page', async () => {
    const res = await request(harness.base, '/assets/index-old.js');
    expect(res.status).toBe(404);
  });

  it('answers a missing file with a known extension with 404, not the page', async () => {
    const res = await request(harness.base, '/sounds/spanish/nope.mp3');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toContain('application/json');
  });

  it('supports HEAD without a body', async () => {
    const res = await request(harness.base, '/assets/style-77aa.css', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe('14');
    expect(res.body.length).toBe(0);
  });

  it('serves precompressed files to clients that accept them', async () => {
    const br = await request(harness.base, '/assets/index-4f9a1c.js', {
      headers: { 'Accept-Encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(brotliDecompressSync(br.body).toString()).toBe(APP_JS);

    const gz = await request(harness.base, '/assets/index-4f9a1c.js', {
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');

    const plain = await request(harness.base, '/assets/index-4f9a1c.js', {
      headers: { 'Accept-Encoding': 'br;q=0' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text).toBe(APP_JS);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await request(harness.base, '/');
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const second = await request(harness.base, '/', { headers: { 'If-None-Match': etag } });
    expect(second.status).toBe(304);
    expect(second.body.length).toBe(0);
  });

  it('serves byte ranges, so audio can seek', async () => {
    const res = await request(harness.base, '/sounds/spanish/a.mp3', { headers: { Range: 'bytes=2-5' } });
    expect(res.status).toBe(206);
    expect(res.headers['content-range']).toBe('bytes 2-5/10');
    expect(res.headers['content-type']).toBe('audio/mpeg');
    expect(res.text).toBe('2345');
    const bad = await request(harness.base, '/sounds/spanish/a.mp3', { headers: { Range: 'bytes=50-60' } });
    expect(bad.status).toBe(416);
  });

  it('refuses path traversal in every spelling', async () => {
    for (const attempt of [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/%2E%2E/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/%2e%2e%5csecret.txt',
      '/assets%2f..%2f..%2fsecret.txt',
      '/index.html%00.js',
      '/%E0%A4%A',
    ]) {
      const res = await request(harness.base, attempt);
      expect([res.status, attempt]).toEqual([400, attempt]);
      expect(res.text).not.toContain('do not serve');
    }
  });

  it('never serves dot-files', async () => {
    const res = await request(harness.base, '/.env');
    expect(res.text).not.toContain('SECRET');
    expect(res.text).toBe(INDEX);
  });

  it('refuses methods other than GET and HEAD on the site', async () => {
    const res = await request(harness.base, '/blog/x', { method: 'POST', body: '{}' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });

  it('says the web app is not built when index.html is missing', async () => {
    const empty = await startGateway({ upstreams: {}, staticDir: path.join(workDir, 'not-built') });
    const none = await startGateway({ upstreams: {} });
    try {
      for (const gw of [empty, none]) {
        const res = await request(gw.base, '/lessons');
        expect(res.status).toBe(503);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(res.text).toContain('npm run build');
        // The API namespace is unaffected.
        expect((await request(gw.base, '/api/none')).status).toBe(404);
      }
    } finally {
      await empty.close();
      await none.close();
    }
  });
});

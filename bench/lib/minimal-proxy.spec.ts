import http from 'node:http';
import { createBareServer } from './bare-server';
import { fetchAnswer, startMinimalProxy } from './bench-run';
import { close, listen } from './local-server.fixture';
import { createMinimalProxy } from './minimal-proxy';

/** GET over one keep-alive agent, so that the client's connections to the proxy can be counted too. */
function get(agent: http.Agent, origin: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      http
        .get(new URL(path, origin), { agent, headers }, (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        })
        .on('error', reject);
    },
  );
}

describe('minimal proxy', () => {
  const page = JSON.stringify([{ id: 'a', title: 'Lesson' }]);
  const upstream = createBareServer({
    '/api/posts/public?limit=20': { body: page, headers: { etag: '"p1"', 'x-total-count': '1' } },
  });
  const seen: Array<{ url: string; cookie?: string; connection?: string }> = [];
  let upstreamConnections = 0;
  upstream.prependListener('request', (req: http.IncomingMessage) =>
    seen.push({ url: req.url ?? '', cookie: req.headers.cookie, connection: req.headers.connection }),
  );
  upstream.on('connection', () => (upstreamConnections += 1));
  let upstreamUrl: string;
  let proxy: ReturnType<typeof createMinimalProxy>;
  let proxyUrl: string;
  let proxyConnections = 0;

  beforeAll(async () => {
    upstreamUrl = await listen(upstream);
    proxy = createMinimalProxy(upstreamUrl);
    proxy.server.on('connection', () => (proxyConnections += 1));
    proxyUrl = await listen(proxy.server);
  });

  afterAll(() => Promise.all([close(proxy.server), close(upstream)]));

  it('passes the request on and answers with the upstream status, headers and exact body', async () => {
    const client = new http.Agent({ keepAlive: true });
    try {
      const res = await get(client, proxyUrl, '/api/posts/public?limit=20', { cookie: 'a=b' });
      expect(res.status).toBe(200);
      expect(res.body).toBe(page);
      expect(res.headers.etag).toBe('"p1"');
      expect(res.headers['x-total-count']).toBe('1');
      expect(res.headers['content-length']).toBe(String(Buffer.byteLength(page)));
      expect(seen.at(-1)).toMatchObject({ url: '/api/posts/public?limit=20', cookie: 'a=b' });
      const missing = await get(client, proxyUrl, '/nowhere');
      expect(missing.status).toBe(404);
      expect(JSON.parse(missing.body)).toEqual({ message: 'Not found' });
    } finally {
      client.destroy();
    }
  });

  it('keeps its connection to the upstream alive from one request to the next, as the client keeps its own', async () => {
    const client = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const before = { upstream: upstreamConnections, proxy: proxyConnections };
    try {
      for (let i = 0; i < 5; i++)
        expect((await get(client, proxyUrl, '/api/posts/public?limit=20')).body).toBe(page);
    } finally {
      client.destroy();
    }
    // One client connection carried all five; the proxy reused its pooled upstream socket (at most one new).
    expect(proxyConnections - before.proxy).toBe(1);
    expect(upstreamConnections - before.upstream).toBeLessThanOrEqual(1);
    expect(Object.values(proxy.agent.freeSockets).flat()).toHaveLength(1);
  });

  it('answers 502 when the upstream is not there', async () => {
    const closed = createBareServer({});
    const gone = await listen(closed);
    await close(closed);
    const orphan = createMinimalProxy(gone);
    const origin = await listen(orphan.server);
    try {
      const client = new http.Agent({ keepAlive: false });
      expect((await get(client, origin, '/x')).status).toBe(502);
    } finally {
      await close(orphan.server);
    }
  });

  it('runs in its own process until stopped', async () => {
    const running = await startMinimalProxy(upstreamUrl);
    try {
      expect(running.pid).not.toBe(process.pid);
      const { body, headers } = await fetchAnswer(running.url, {
        path: '/api/posts/public?limit=20',
        headers: {},
      });
      expect(body).toBe(page);
      expect(headers.get('etag')).toBe('"p1"');
    } finally {
      await running.stop();
    }
    await expect(fetch(running.url)).rejects.toThrow();
  });
});

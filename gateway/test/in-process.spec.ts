import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { InProcessHandler } from '../src/in-process';
import { CONTENT_SECURITY_POLICY } from '../src/security-headers';
import { PUBLIC_ORIGIN, startGateway, waitFor, type Harness } from './support/gateway-harness';
import { startFakeService, type FakeService } from './support/fake-service';
import { rawRequest as request } from '@district/nest-common/testing';

/**
 * A service in the gateway's process (`--target=all`): the gateway hands it the client's own request and
 * response after every check, instead of a loopback hop. The stand-in below is a plain listener that records
 * what it was given; content also keeps a replica on loopback (what the launcher's services keep), which the
 * gateway uses for bodies without a declared length.
 */

const MB = 1024 * 1024;

interface Handed {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  client: string;
  bodyBytes: number;
  closed: boolean;
}

class LocalService {
  readonly handed: Handed[] = [];
  /** Answers instead of the default echo when it returns true. */
  override?: (req: IncomingMessage, res: ServerResponse, seen: Handed) => boolean;

  readonly handler: InProcessHandler = (req, res, client) => {
    const seen: Handed = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: { ...req.headers },
      client,
      bodyBytes: 0,
      closed: false,
    };
    this.handed.push(seen);
    res.once('close', () => {
      seen.closed = !res.writableFinished;
    });
    if (this.override?.(req, res, seen)) return;
    req.on('data', (chunk: Buffer) => {
      seen.bodyBytes += chunk.length;
    });
    req.on('end', () => {
      const body = JSON.stringify({
        service: 'content',
        inProcess: true,
        url: seen.url,
        bodyBytes: seen.bodyBytes,
      });
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    });
  };
}

let local: LocalService;
let replica: FakeService;
let harness: Harness;
const extra: Harness[] = [];

beforeAll(async () => {
  replica = await startFakeService('content');
  local = new LocalService();
  harness = await startGateway({ upstreams: { content: [replica.url] }, local: { content: local.handler } });
});

afterAll(async () => {
  await Promise.all([harness, ...extra].map((h) => h.close()));
  await replica.kill();
});

async function gatewayWith(options: Parameters<typeof startGateway>[0]): Promise<Harness> {
  const gw = await startGateway(options);
  extra.push(gw);
  return gw;
}

const lastHanded = () => local.handed[local.handed.length - 1];

describe('hand-over to a service in this process', () => {
  it('calls the service’s listener with the forwarding headers, the request id and no hop-by-hop headers', async () => {
    const before = replica.requests.length;
    const res = await request(harness.base, '/api/posts/public?limit=20', {
      headers: {
        'X-Request-Id': 'in-process-0001',
        Connection: 'keep-alive, x-secret',
        'Keep-Alive': 'timeout=5',
        TE: 'trailers',
        'X-Real-IP': '6.6.6.6',
        'X-Forwarded-For': '6.6.6.6',
        Forwarded: 'for=6.6.6.6',
      },
    });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({
      service: 'content',
      inProcess: true,
      url: '/api/posts/public?limit=20',
      bodyBytes: 0,
    });
    expect(replica.requests.length).toBe(before);
    const seen = lastHanded();
    expect(seen.client).toBe('127.0.0.1');
    expect(seen.headers).toMatchObject({
      'x-request-id': 'in-process-0001',
      'x-forwarded-for': '127.0.0.1',
      'x-forwarded-proto': 'http',
      'x-forwarded-host': harness.base.replace('http://', ''),
    });
    for (const name of ['connection', 'keep-alive', 'te', 'x-real-ip', 'forwarded'])
      expect(seen.headers[name]).toBeUndefined();
    // The gateway's own answer headers are on the response the service writes.
    expect(res.headers['x-request-id']).toBe('in-process-0001');
    expect(res.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(res.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
      'cross-origin-resource-policy': 'same-origin',
    });
  });

  it('lets the service’s own value of a security header win, as through the proxy', async () => {
    local.override = (req, res) => {
      if (req.url !== '/api/posts/framed') return false;
      res.writeHead(200, { 'X-Frame-Options': 'DENY', 'Content-Type': 'text/plain' });
      res.end('ok');
      return true;
    };
    try {
      const res = await request(harness.base, '/api/posts/framed');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    } finally {
      local.override = undefined;
    }
  });

  it('passes a body with its Content-Length, and still refuses cross-origin writes and oversized bodies first', async () => {
    const payload = JSON.stringify({ title: 'Fractions' });
    const ok = await request(harness.base, '/api/posts', {
      method: 'POST',
      body: payload,
      headers: { 'Content-Type': 'application/json', Origin: PUBLIC_ORIGIN },
    });
    expect(ok.json()).toMatchObject({ inProcess: true, bodyBytes: Buffer.byteLength(payload) });

    const before = local.handed.length;
    const foreign = await request(harness.base, '/api/posts', {
      method: 'POST',
      body: payload,
      headers: { 'Content-Type': 'application/json', Origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.json()).toMatchObject({ statusCode: 403, message: 'Cross-origin request refused' });
    const rebound = await request(harness.base, '/api/posts/public', { headers: { Host: 'evil.example' } });
    expect(rebound.status).toBe(421);
    const tooLarge = await request(harness.base, '/api/posts', {
      method: 'POST',
      body: Buffer.alloc(MB + 1, 0x61),
    });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.headers.connection).toBe('close');
    expect(tooLarge.json()).toMatchObject({
      statusCode: 413,
      message: 'The request body is too large. The limit is 1 MB.',
    });
    expect(local.handed.length).toBe(before);
  });

  it('sends a body without a declared length over the proxy, which counts it against the limit as it streams', async () => {
    const before = local.handed.length;
    const chunk = Buffer.alloc(256 * 1024, 1);
    const over = await request(harness.base, '/api/posts', {
      method: 'POST',
      chunks: [chunk, chunk, chunk, chunk, chunk],
    });
    expect(over.status).toBe(413);
    expect(over.json()).toMatchObject({
      statusCode: 413,
      message: 'The request body is too large. The limit is 1 MB.',
    });
    const under = await request(harness.base, '/api/posts', { method: 'POST', chunks: [chunk, chunk] });
    expect(under.status).toBe(200);
    expect(under.json()).toMatchObject({ service: 'content', bodyBytes: 512 * 1024 });
    expect(under.json()).not.toHaveProperty('inProcess');
    expect(local.handed.length).toBe(before);
  });

  it('answers Expect: 100-continue before handing the body over', async () => {
    const status = await new Promise<{ continued: boolean; status: number; body: string }>(
      (resolve, reject) => {
        const url = new URL(harness.base);
        let continued = false;
        const req = http.request({
          host: url.hostname,
          port: url.port,
          path: '/api/posts',
          method: 'POST',
          headers: { Expect: '100-continue', 'Content-Length': 5, 'Content-Type': 'text/plain' },
          agent: false,
        });
        req.on('continue', () => {
          continued = true;
          req.end('hello');
        });
        req.on('response', (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ continued, status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
      },
    );
    expect(status).toMatchObject({ continued: true, status: 200 });
    expect(JSON.parse(status.body)).toMatchObject({ inProcess: true, bodyBytes: 5 });
    expect(lastHanded().headers.expect).toBeUndefined();
  });

  it('gives the service the address the gateway decided: the socket, or behind a trusted proxy its X-Forwarded-For', async () => {
    await request(harness.base, '/api/posts/public', { headers: { 'X-Forwarded-For': '203.0.113.9' } });
    expect(lastHanded()).toMatchObject({
      client: '127.0.0.1',
      headers: expect.objectContaining({ 'x-forwarded-for': '127.0.0.1' }),
    });

    const behindIngress = await gatewayWith({
      upstreams: { content: [replica.url] },
      local: { content: local.handler },
      trustProxy: true,
    });
    await request(behindIngress.base, '/api/posts/public', {
      headers: { 'X-Forwarded-For': '198.51.100.4, 203.0.113.9', 'X-Forwarded-Proto': 'https' },
    });
    expect(lastHanded()).toMatchObject({
      client: '203.0.113.9',
      headers: expect.objectContaining({ 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' }),
    });
  });

  it('writes one access-log line for a handed-over request, with one "service" key and upstream "in-process"', async () => {
    const res = await request(harness.base, '/api/posts/public', {
      headers: { 'X-Request-Id': 'in-process-log-01' },
    });
    expect(res.status).toBe(200);
    await new Promise((resolve) => setImmediate(resolve));
    const lines = harness.logLines.filter((l) => l.requestId === 'in-process-log-01');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: 'request',
      path: '/api/posts/public',
      status: 200,
      service: 'gateway',
      target: 'content',
      upstream: 'in-process',
    });
    const raw = harness.rawLogLines.filter((l) => l.includes('in-process-log-01'));
    const keys = [...raw[0].matchAll(/"([^"]+)":/g)].map((m) => m[1]);
    expect(keys.length).toBe(new Set(keys).size);
  });
});

describe('the upstream timeout, as through the proxy', () => {
  it('answers 504 when the service stays silent, and ignores what it writes afterwards', async () => {
    const silent = new LocalService();
    let late: (() => void) | undefined;
    silent.override = (_req, res) => {
      late = () => {
        // What Fastify does for a reply already sent: nothing reaches the client.
        if (!res.writableEnded) res.end('late');
      };
      return true;
    };
    const gw = await gatewayWith({
      upstreams: { content: [replica.url] },
      local: { content: silent.handler },
      upstreamTimeoutMs: 200,
    });
    const res = await request(gw.base, '/api/posts/slow', {
      headers: { 'X-Request-Id': 'in-process-504-01' },
    });
    expect(res.status).toBe(504);
    expect(res.json()).toMatchObject({
      statusCode: 504,
      message: 'The content service took too long to answer. Please try again.',
      requestId: 'in-process-504-01',
    });
    late?.();
    // The gateway keeps serving.
    silent.override = undefined;
    expect((await request(gw.base, '/api/posts/fast')).status).toBe(200);
  });

  it('does not count a slow upload as silence', async () => {
    const gw = await gatewayWith({
      upstreams: { content: [replica.url] },
      local: { content: local.handler },
      upstreamTimeoutMs: 300,
    });
    const url = new URL(gw.base);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request({
        host: url.hostname,
        port: url.port,
        path: '/api/posts',
        method: 'POST',
        headers: { 'Content-Length': 6 },
        agent: false,
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      // Six bytes over ~0.9 s: never 300 ms without one.
      let sent = 0;
      const tick = setInterval(() => {
        req.write('x');
        if (++sent === 6) {
          clearInterval(tick);
          req.end();
        }
      }, 150);
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ inProcess: true, bodyBytes: 6 });
  });

  it('cuts the connection when an answer that has begun goes silent', async () => {
    const stalling = new LocalService();
    stalling.override = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('partial');
      return true;
    };
    const gw = await gatewayWith({
      upstreams: { content: [replica.url] },
      local: { content: stalling.handler },
      upstreamTimeoutMs: 200,
    });
    await expect(request(gw.base, '/api/posts/stalled')).rejects.toThrow(/aborted|socket hang up|ECONNRESET/);
  });
});

describe('a client that leaves', () => {
  it('ends the handed-over request as it would on the service’s own socket, logged as 499', async () => {
    const waiting = new LocalService();
    waiting.override = () => true;
    const gw = await gatewayWith({
      upstreams: { content: [replica.url] },
      local: { content: waiting.handler },
    });
    const url = new URL(gw.base);
    const req = http.request({
      host: url.hostname,
      port: url.port,
      path: '/api/posts/left',
      headers: { 'X-Request-Id': 'in-process-left-01' },
      agent: false,
    });
    req.on('error', () => undefined);
    req.end();
    await waitFor(() => waiting.handed.length === 1, 5000, 'the hand-over');
    req.destroy();
    await waitFor(() => waiting.handed[0].closed, 5000, 'the service to see the client go');
    await waitFor(
      () => gw.logLines.some((l) => l.requestId === 'in-process-left-01'),
      5000,
      'the access line',
    );
    expect(gw.logLines.filter((l) => l.requestId === 'in-process-left-01')).toEqual([
      expect.objectContaining({ status: 499, upstream: 'in-process' }),
    ]);
  });
});

import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createGateway, ROSTER_UPLOAD_LIMIT } from '../src';
import { WITHOUT_CHAT_AND_PLANNED, TEST_ROUTES, TEST_SERVICES } from './support/test-services';
import { CONTENT_SECURITY_POLICY } from '../src/security-headers';
import type { FakeService } from './support/fake-service';
import {
  PUBLIC_ORIGIN,
  startAllServices,
  startGateway,
  upstreamsOf,
  type Harness,
} from './support/gateway-harness';
import { startFakeService, unusedPort } from './support/fake-service';
import { rawRequest as request } from '@district/nest-common/testing';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const MB = 1024 * 1024;

let services: Record<string, FakeService>;
let harness: Harness;

beforeAll(async () => {
  services = await startAllServices(false);
  harness = await startGateway({ upstreams: upstreamsOf(services) });
});

afterAll(async () => {
  await harness.close();
  await Promise.all(Object.values(services).map((s) => s.kill()));
});

function lastRequestOf(service: FakeService) {
  return service.requests[service.requests.length - 1];
}

describe('routing', () => {
  it.each(TEST_ROUTES.map((r) => [r.sample, r.service] as const))(
    'GET %s reaches %s',
    async (sample, service) => {
      const res = await request(harness.base, `${sample}?probe=${service}`);
      expect(res.status).toBe(200);
      expect(res.json()).toMatchObject({ service, url: `${sample}?probe=${service}` });
    },
  );

  it('forwards methods and bodies unchanged', async () => {
    const payload = JSON.stringify({ title: 'Fractions', content: '<p>½ + ¼</p>' });
    const res = await request(harness.base, '/api/posts/abc', {
      method: 'PUT',
      body: payload,
      headers: { 'Content-Type': 'application/json', Origin: PUBLIC_ORIGIN },
    });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({
      service: 'content',
      method: 'PUT',
      bodyBytes: Buffer.byteLength(payload),
    });
  });

  it('answers an unknown /api path with a JSON 404 and calls no service', async () => {
    const before = Object.values(services).reduce((n, s) => n + s.requests.length, 0);
    for (const path of ['/api/unknown', '/api', '/api/users-export', '/api/admin/nothing']) {
      const res = await request(harness.base, path);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toMatchObject({ statusCode: 404, message: 'Not found' });
    }
    expect(Object.values(services).reduce((n, s) => n + s.requests.length, 0)).toBe(before);
  });

  it('refuses paths with parent segments', async () => {
    const res = await request(harness.base, '/api/posts/../users');
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ statusCode: 400, message: 'Invalid path' });
  });
});

describe('routing from the services it is handed', () => {
  it('with identity and content only, answers the other services’ paths as unknown /api paths', async () => {
    // Replicas for the planned services are configured too: without a registered service they are not used.
    const partial = await startGateway({
      services: WITHOUT_CHAT_AND_PLANNED,
      upstreams: upstreamsOf(services),
    });
    try {
      const before = ['assessment', 'classroom', 'chat'].map((name) => services[name].requests.length);
      for (const path of [
        '/api/quiz-grades/4',
        '/api/audio-proxy',
        '/api/chatrooms',
        '/api/admin/chatrooms/5b5b',
      ]) {
        const res = await request(partial.base, path);
        expect([path, res.status, res.json()]).toEqual([
          path,
          404,
          expect.objectContaining({ message: 'Not found' }),
        ]);
      }
      expect(['assessment', 'classroom', 'chat'].map((name) => services[name].requests.length)).toEqual(
        before,
      );
      for (const r of TEST_ROUTES.filter((t) => t.service === 'identity' || t.service === 'content')) {
        expect([r.sample, (await request(partial.base, r.sample)).json()]).toEqual([
          r.sample,
          expect.objectContaining({ service: r.service }),
        ]);
      }
      const ready = (await request(partial.base, '/readyz')).json<{ services: Record<string, unknown> }>();
      expect(Object.keys(ready.services)).toEqual(['identity', 'content']);
    } finally {
      await partial.close();
    }
  });

  it('routes a new service’s declared paths with no other change, and answers 503 for it without replicas', async () => {
    const library = await startFakeService('library');
    const books = {
      path: '/api/books',
      match: 'tree',
      bodyLimit: 'default',
      sample: '/api/books/7',
    } as const;
    const withLibrary = await startGateway({
      services: [...WITHOUT_CHAT_AND_PLANNED, { name: 'library', routes: [books] }],
      upstreams: { library: [library.url] },
    });
    const without = await startGateway({ services: [{ name: 'library', routes: [books] }], upstreams: {} });
    try {
      expect((await request(withLibrary.base, '/api/books/7')).json()).toMatchObject({ service: 'library' });
      const down = await request(without.base, '/api/books/7');
      expect(down.status).toBe(503);
      expect(down.json()).toMatchObject({
        message: 'The library service is not available right now. Please try again shortly.',
      });
    } finally {
      await withLibrary.close();
      await without.close();
      await library.kill();
    }
  });

  it('refuses to start with a route table that would send a path to the wrong service', () => {
    expect(() =>
      createGateway({
        services: [
          {
            name: 'one',
            routes: [{ path: '/api/a', match: 'tree', bodyLimit: 'default', sample: '/api/a/1' }],
          },
          {
            name: 'two',
            routes: [{ path: '/api/a/b', match: 'tree', bodyLimit: 'default', sample: '/api/a/b' }],
          },
        ],
        upstreams: {},
        publicOrigin: PUBLIC_ORIGIN,
        logger: pino({ level: 'silent' }),
        defaultMetrics: false,
      }),
    ).toThrow('Route /api/a/b of two: its sample /api/a/b goes to /api/a of one');
  });
});

describe('request id and forwarding headers', () => {
  it('generates a UUID when the client sends none, forwards it and echoes it', async () => {
    const res = await request(harness.base, '/api/posts/public');
    const id = res.headers['x-request-id'];
    expect(id).toMatch(UUID);
    expect(lastRequestOf(services.content).headers['x-request-id']).toBe(id);
  });

  it('keeps an acceptable id from the client', async () => {
    const id = 'client-trace-0001.abc';
    const res = await request(harness.base, '/api/users', { headers: { 'X-Request-Id': id } });
    expect(res.headers['x-request-id']).toBe(id);
    expect(lastRequestOf(services.identity).headers['x-request-id']).toBe(id);
  });

  it('replaces an unacceptable id', async () => {
    for (const bad of ['has spaces in it', 'x'.repeat(200), 'short', '<script>alert(1)</script>']) {
      const res = await request(harness.base, '/api/users', { headers: { 'X-Request-Id': bad } });
      expect(res.headers['x-request-id']).toMatch(UUID);
      expect(lastRequestOf(services.identity).headers['x-request-id']).toBe(res.headers['x-request-id']);
    }
  });

  it('puts the request id on error answers the gateway writes itself', async () => {
    const res = await request(harness.base, '/api/nope', { headers: { 'X-Request-Id': 'trace-12345678' } });
    expect(res.json()).toMatchObject({ requestId: 'trace-12345678' });
  });

  it('sets X-Forwarded-* from the connection, ignoring what an untrusted client claims', async () => {
    await request(harness.base, '/api/quiz-grades', {
      headers: {
        'X-Forwarded-For': '203.0.113.9',
        'X-Forwarded-Proto': 'https',
        'X-Forwarded-Host': 'evil.example',
        Forwarded: 'for=203.0.113.9',
      },
    });
    const seen = lastRequestOf(services.assessment).headers;
    expect(seen['x-forwarded-for']).toBe('127.0.0.1');
    expect(seen['x-forwarded-proto']).toBe('http');
    expect(seen['x-forwarded-host']).toBe(new URL(harness.base).host);
    expect(seen.forwarded).toBeUndefined();
    // The public Host is kept, so services build their URLs for the site, not for themselves.
    expect(seen.host).toBe(new URL(harness.base).host);
  });
});

describe('Origin check', () => {
  const post = (headers: Record<string, string>) =>
    request(harness.base, '/api/categories', {
      method: 'POST',
      body: '{"name":"Maths"}',
      headers: { 'Content-Type': 'application/json', ...headers },
    });

  it('refuses a state-changing request from a foreign origin without calling the service', async () => {
    const before = services.content.requests.length;
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const res = await request(harness.base, '/api/categories/1', {
        method,
        body: '{}',
        headers: { Origin: 'https://evil.example' },
      });
      expect(res.status).toBe(403);
      expect(res.json()).toMatchObject({ statusCode: 403, message: 'Cross-origin request refused' });
    }
    expect(services.content.requests.length).toBe(before);
  });

  it('uses Referer when Origin is absent', async () => {
    expect((await post({ Referer: 'https://evil.example/page' })).status).toBe(403);
    expect((await post({ Referer: `${PUBLIC_ORIGIN}/admin` })).status).toBe(200);
  });

  it('refuses the opaque "null" origin', async () => {
    expect((await post({ Origin: 'null' })).status).toBe(403);
  });

  it('accepts the public origin and requests without Origin or Referer', async () => {
    expect((await post({ Origin: PUBLIC_ORIGIN })).status).toBe(200);
    expect((await post({})).status).toBe(200);
  });

  it('refuses the request’s own origin when it is not a configured origin', async () => {
    // 127.0.0.1:<port> may reach the site (an extra host name), but its pages are not an allowed origin.
    const res = await post({ Origin: harness.base });
    expect(res.status).toBe(403);
    expect(res.json()).toMatchObject({ statusCode: 403, message: 'Cross-origin request refused' });
  });

  it('refuses garbage in Origin', async () => {
    expect((await post({ Origin: 'not a url' })).status).toBe(403);
    expect((await post({ Referer: 'javascript:alert(1)' })).status).toBe(403);
  });

  it('does not check safe methods', async () => {
    const res = await request(harness.base, '/api/categories', {
      headers: { Origin: 'https://evil.example' },
    });
    expect(res.status).toBe(200);
  });

  it('accepts additionally configured origins', async () => {
    const other = await startGateway({
      upstreams: upstreamsOf(services),
      allowedOrigins: ['https://www.example-district.org'],
    });
    try {
      const ok = await request(other.base, '/api/comments/1', {
        method: 'DELETE',
        headers: { Origin: 'https://www.example-district.org' },
      });
      expect(ok.status).toBe(200);
      const refused = await request(other.base, '/api/comments/1', {
        method: 'DELETE',
        headers: { Origin: 'https://www.example-district.org.evil.example' },
      });
      expect(refused.status).toBe(403);
    } finally {
      await other.close();
    }
  });
});

describe('Host check (DNS rebinding)', () => {
  const port = () => new URL(harness.base).port;

  it('refuses a rebinding request (foreign Host and matching Origin) with 421 before calling the service', async () => {
    const before = services.content.requests.length;
    const res = await request(harness.base, '/api/categories', {
      method: 'POST',
      body: '{"name":"Maths"}',
      headers: {
        'Content-Type': 'application/json',
        Host: `evil.example:${port()}`,
        Origin: `http://evil.example:${port()}`,
      },
    });
    expect(res.status).toBe(421);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toMatchObject({ statusCode: 421, message: 'Unknown host' });
    expect(services.content.requests.length).toBe(before);
  });

  it('refuses every method and path for an unknown Host: the SPA, the API, the API reference', async () => {
    const before = Object.values(services).reduce((n, s) => n + s.requests.length, 0);
    for (const [method, path] of [
      ['GET', '/'],
      ['GET', '/blog/fractions'],
      ['HEAD', '/assets/app.js'],
      ['GET', '/api/auth/me'],
      ['GET', '/api/posts/public'],
      ['GET', '/uploads/a.png'],
      ['GET', '/api/docs'],
      ['GET', '/metrics'],
      ['OPTIONS', '/api/users'],
    ]) {
      const res = await request(harness.base, path, { method, headers: { Host: `evil.example:${port()}` } });
      expect([method, path, res.status]).toEqual([method, path, 421]);
    }
    expect(Object.values(services).reduce((n, s) => n + s.requests.length, 0)).toBe(before);
  });

  it('refuses names the public origin does not cover: other ports, loopback names, IP addresses', async () => {
    for (const host of [
      `localhost:${port()}`,
      `127.0.0.1:${Number(port()) + 1}`,
      '10.1.2.3:3000',
      'learn.example-district.org.evil.example',
    ]) {
      const res = await request(harness.base, '/api/posts/public', { headers: { Host: host } });
      expect([host, res.status]).toEqual([host, 421]);
    }
  });

  it('accepts the public origin’s own host name', async () => {
    const res = await request(harness.base, '/api/posts/public', {
      headers: { Host: 'learn.example-district.org' },
    });
    expect(res.status).toBe(200);
  });

  it('answers /healthz and /readyz whatever the Host (orchestrators probe pod addresses)', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const res = await request(harness.base, path, { headers: { Host: '10.1.2.3:3000' } });
      expect([path, res.status]).toEqual([path, 200]);
    }
  });

  it('still refuses the rebinding origin with 403 when its host name is configured', async () => {
    const other = await startGateway({ upstreams: upstreamsOf(services), allowedHosts: ['evil.example'] });
    try {
      const read = await request(other.base, '/api/categories', { headers: { Host: 'evil.example' } });
      expect(read.status).toBe(200);
      const write = await request(other.base, '/api/categories', {
        method: 'POST',
        body: '{}',
        headers: { Host: 'evil.example', Origin: 'http://evil.example' },
      });
      expect(write.status).toBe(403);
      expect(write.json()).toMatchObject({ statusCode: 403, message: 'Cross-origin request refused' });
    } finally {
      await other.close();
    }
  });

  it('lets an allowed extra origin reach the site and send state-changing requests', async () => {
    const other = await startGateway({
      upstreams: upstreamsOf(services),
      allowedOrigins: ['https://www.example-district.org'],
    });
    try {
      const res = await request(other.base, '/api/comments/1', {
        method: 'DELETE',
        headers: { Host: 'www.example-district.org', Origin: 'https://www.example-district.org' },
      });
      expect(res.status).toBe(200);
      expect(res.json()).toMatchObject({ service: 'content', method: 'DELETE' });
    } finally {
      await other.close();
    }
  });

  it('behind a trusted proxy, checks the host the client asked for (X-Forwarded-Host)', async () => {
    const behind = await startGateway({ upstreams: upstreamsOf(services), trustProxy: true });
    try {
      const rebound = await request(behind.base, '/api/posts/public', {
        headers: { 'X-Forwarded-Host': 'evil.example' },
      });
      expect(rebound.status).toBe(421);
      const ok = await request(behind.base, '/api/posts/public', {
        headers: { 'X-Forwarded-Host': 'learn.example-district.org' },
      });
      expect(ok.status).toBe(200);
    } finally {
      await behind.close();
    }
  });

  it('reaches a loopback public origin by its loopback aliases on the same port, and nothing else', async () => {
    const free = await unusedPort();
    const gateway = createGateway({
      services: TEST_SERVICES,
      upstreams: upstreamsOf(services),
      publicOrigin: `http://localhost:${free}`,
      logger: pino({ level: 'silent' }),
      defaultMetrics: false,
      healthCheckIntervalMs: 0,
    });
    try {
      const { port: bound } = (await gateway.listen(free, '127.0.0.1')) as AddressInfo;
      const base = `http://127.0.0.1:${bound}`;
      for (const host of [`localhost:${bound}`, `127.0.0.1:${bound}`, `[::1]:${bound}`]) {
        expect([
          host,
          (await request(base, '/api/posts/public', { headers: { Host: host } })).status,
        ]).toEqual([host, 200]);
      }
      for (const host of [`evil.example:${bound}`, `localhost:${bound + 1}`, `0.0.0.0:${bound}`]) {
        expect([
          host,
          (await request(base, '/api/posts/public', { headers: { Host: host } })).status,
        ]).toEqual([host, 421]);
      }
      // The aliases may reach the site; only the public origin's pages may write.
      const write = (origin: string) =>
        request(base, '/api/categories', { method: 'POST', body: '{}', headers: { Origin: origin } });
      expect((await write(`http://localhost:${bound}`)).status).toBe(200);
      expect((await write(`http://evil.example:${bound}`)).status).toBe(403);
    } finally {
      await gateway.close();
    }
  });
});

describe('body-size limits', () => {
  it('passes a JSON body of exactly the limit', async () => {
    const body = Buffer.alloc(MB, 0x61);
    const res = await request(harness.base, '/api/posts', { method: 'POST', body });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ bodyBytes: MB });
  });

  it('refuses a declared Content-Length over 1 MB with a JSON 413 before calling the service', async () => {
    const before = services.content.requests.length;
    const res = await request(harness.base, '/api/posts', {
      method: 'POST',
      body: Buffer.alloc(MB + 1, 0x61),
    });
    expect(res.status).toBe(413);
    expect(res.json()).toMatchObject({
      statusCode: 413,
      message: 'The request body is too large. The limit is 1 MB.',
    });
    expect(services.content.requests.length).toBe(before);
  });

  it('counts a chunked body as it streams and stops it past the limit', async () => {
    const before = services.assessment.requests.length;
    const chunk = randomBytes(256 * 1024);
    const res = await request(harness.base, '/api/quiz-grades', {
      method: 'POST',
      chunks: [chunk, chunk, chunk, chunk, chunk, chunk],
    });
    expect(res.status).toBe(413);
    expect(res.json()).toMatchObject({
      statusCode: 413,
      message: 'The request body is too large. The limit is 1 MB.',
    });
    // Whatever reached the service was cut off, never delivered whole.
    for (const seen of services.assessment.requests.slice(before)) {
      expect(seen.complete).toBe(false);
      expect(seen.bodyBytes).toBeLessThanOrEqual(MB);
    }
  });

  it('passes a chunked body under the limit', async () => {
    const chunk = randomBytes(100 * 1024);
    const res = await request(harness.base, '/api/quiz-grades', {
      method: 'POST',
      chunks: [chunk, chunk, chunk],
    });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ service: 'assessment', bodyBytes: 300 * 1024 });
  });

  it('allows a 5 MB image upload with multipart overhead and refuses past 6 MB', async () => {
    const ok = await request(harness.base, '/api/upload-image', {
      method: 'POST',
      body: Buffer.alloc(5 * MB + 4096, 1),
      headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
    });
    expect(ok.status).toBe(200);
    expect(ok.json()).toMatchObject({ service: 'content', bodyBytes: 5 * MB + 4096 });

    const declared = await request(harness.base, '/api/upload-image', {
      method: 'POST',
      body: Buffer.alloc(6 * MB + 1, 1),
    });
    expect(declared.status).toBe(413);
    expect(declared.json()).toMatchObject({ message: 'The request body is too large. The limit is 6 MB.' });

    const chunk = Buffer.alloc(MB, 1);
    const streamed = await request(harness.base, '/api/upload-image', {
      method: 'POST',
      chunks: [chunk, chunk, chunk, chunk, chunk, chunk, chunk],
    });
    expect(streamed.status).toBe(413);
  });

  it('lets a district’s roster zip through to identity, up to the roster limit (ADR 0042)', async () => {
    const chunk = Buffer.alloc(MB, 1);
    const ok = await request(harness.base, '/api/admin/roster/imports', {
      method: 'POST',
      chunks: Array.from({ length: 12 }, () => chunk),
      headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
    });
    expect(ok.status).toBe(200);
    expect(ok.json()).toMatchObject({ service: 'identity', bodyBytes: 12 * MB });
    const declared = await request(harness.base, '/api/admin/roster/imports', {
      method: 'POST',
      headers: { 'Content-Length': String(ROSTER_UPLOAD_LIMIT + 1) },
      body: Buffer.alloc(0),
    });
    expect(declared.status).toBe(413);
    // The image upload's limit still holds on its own route.
    const image = await request(harness.base, '/api/upload-image', {
      method: 'POST',
      chunks: Array.from({ length: 7 }, () => chunk),
    });
    expect(image.status).toBe(413);
  });

  it('keeps serving after refusing bodies', async () => {
    expect((await request(harness.base, '/api/posts/public')).status).toBe(200);
  });
});

describe('security headers', () => {
  const expectSecurityHeaders = (headers: Record<string, unknown>) => {
    expect(headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(headers['permissions-policy']).toEqual(expect.stringContaining('camera=()'));
  };

  it('are on proxied answers, gateway errors and the gateway’s own endpoints', async () => {
    for (const path of [
      '/api/posts/public',
      '/api/missing',
      '/healthz',
      '/readyz',
      '/metrics',
      '/some/screen',
    ]) {
      const res = await request(harness.base, path);
      expectSecurityHeaders(res.headers);
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
    const refused = await request(harness.base, '/api/posts/public', { headers: { Host: 'evil.example' } });
    expect(refused.status).toBe(421);
    expectSecurityHeaders(refused.headers);
  });

  it('allow the embeds the SPA needs, connections to the site only, and forms posting to the site only', () => {
    const directives = new Map(
      CONTENT_SECURITY_POLICY.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values.join(' ')] as const;
      }),
    );
    expect(Object.fromEntries(directives)).toMatchObject({
      'default-src': "'self'",
      'frame-src': 'https://docs.google.com https://www.youtube.com https://www.youtube-nocookie.com',
      'img-src': "'self' data: blob: https:",
      'media-src': "'self' https: blob:",
      // CSP3 'self' covers ws:/wss: to the same host; a blanket ws: wss: would let a script talk to any host.
      'connect-src': "'self'",
      'form-action': "'self'",
      'style-src': "'self' 'unsafe-inline'",
      'frame-ancestors': "'self'",
      'object-src': "'none'",
      'base-uri': "'self'",
    });
  });

  it('add HSTS only for requests that came over TLS at a trusted proxy', async () => {
    const behindTls = await startGateway({ upstreams: upstreamsOf(services), trustProxy: true });
    try {
      const tls = await request(behindTls.base, '/api/posts/public', {
        headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '198.51.100.1, 203.0.113.7' },
      });
      expect(tls.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      const seen = lastRequestOf(services.content).headers;
      // The entry the trusted proxy appended is the client; what the client wrote before it is not.
      expect(seen['x-forwarded-for']).toBe('203.0.113.7');
      expect(seen['x-forwarded-proto']).toBe('https');
      const plain = await request(behindTls.base, '/api/posts/public', {
        headers: { 'X-Forwarded-Proto': 'http' },
      });
      expect(plain.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await behindTls.close();
    }
    // Not trusted: a client cannot claim TLS.
    const spoofed = await request(harness.base, '/api/posts/public', {
      headers: { 'X-Forwarded-Proto': 'https' },
    });
    expect(spoofed.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('own endpoints, metrics and access log', () => {
  it('answers /healthz and /readyz with per-service status', async () => {
    const health = await request(harness.base, '/healthz');
    expect(health.status).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await request(harness.base, '/readyz');
    expect(ready.status).toBe(200);
    const body = ready.json<{
      status: string;
      services: Record<string, { available: number; total: number }>;
    }>();
    expect(body.status).toBe('ready');
    expect(Object.keys(body.services).sort()).toEqual([
      'assessment',
      'chat',
      'classroom',
      'content',
      'identity',
    ]);
    expect(body.services.identity).toEqual({ available: 1, total: 1 });
    expect(harness.gateway.isReady()).toBe(true);
  });

  it('does not tell /readyz callers where the replicas are', async () => {
    const down = await unusedPort();
    const gw = await startGateway({
      upstreams: { content: [services.content.url, `http://10.20.30.40:${down}`] },
    });
    try {
      const ready = await request(gw.base, '/readyz');
      expect(ready.json()).toMatchObject({ services: { content: { available: 2, total: 2 } } });
      expect(ready.text).not.toContain('10.20.30.40');
      expect(ready.text).not.toContain(services.content.url);
      expect(ready.text).not.toMatch(/url|replica|:\d{2,5}\b/);
      // The programmatic status keeps them, for operators and tests.
      expect(gw.gateway.upstreamStatus().content.map((r) => r.url)).toContain(services.content.url);
    } finally {
      await gw.close();
    }
  });

  it('exposes request counts and durations by service and status', async () => {
    await request(harness.base, '/api/google-slides');
    await request(harness.base, '/api/not-a-route');
    const res = await request(harness.base, '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toMatch(/gateway_requests_total\{service="classroom",status="200"\} \d+/);
    expect(res.text).toMatch(/gateway_requests_total\{service="none",status="404"\} \d+/);
    expect(res.text).toMatch(
      /gateway_request_duration_seconds_bucket\{le="0\.005",service="classroom",status="200"\} \d+/,
    );
    expect(res.text).toContain(
      `gateway_upstream_up{service="identity",replica="${services.identity.url}"} 1`,
    );
  });

  it('beyond loopback without a token, refuses /metrics with 403 and warns once at listen', async () => {
    const wide = await startGateway({ upstreams: upstreamsOf(services) }, { listenHost: '0.0.0.0' });
    try {
      for (const headers of [{}, { Authorization: 'Bearer anything-at-all-here' }]) {
        const res = await request(wide.base, '/metrics', { headers });
        expect(res.status).toBe(403);
        expect(res.json()).toMatchObject({
          statusCode: 403,
          message: expect.stringContaining('GATEWAY_METRICS_TOKEN'),
        });
        expect(res.text).not.toContain('gateway_requests_total');
      }
      expect((await request(wide.base, '/healthz')).status).toBe(200);
      const warnings = wide.logLines.filter(
        (l) => l.level === 40 && String(l.msg).includes('GATEWAY_METRICS_TOKEN'),
      );
      expect(warnings).toHaveLength(1);
    } finally {
      await wide.close();
    }
  });

  it('beyond loopback with a token, serves /metrics to the bearer only, whatever the Host', async () => {
    const wide = await startGateway(
      { upstreams: upstreamsOf(services), metricsToken: 'a-long-metrics-token' },
      { listenHost: '0.0.0.0' },
    );
    try {
      expect((await request(wide.base, '/metrics')).status).toBe(401);
      const wrong = await request(wide.base, '/metrics', {
        headers: { Authorization: 'Bearer a-long-metrics-tokeN' },
      });
      expect(wrong.status).toBe(401);
      expect(wrong.headers['www-authenticate']).toBe('Bearer');
      const ok = await request(wide.base, '/metrics', {
        headers: { Authorization: 'Bearer a-long-metrics-token' },
      });
      expect(ok.status).toBe(200);
      expect(ok.text).toContain('gateway_requests_total');
      // Prometheus scrapes the pod address; a rebinding page cannot present the token.
      const byPodAddress = await request(wide.base, '/metrics', {
        headers: { Host: '10.1.2.3:3000', Authorization: 'Bearer a-long-metrics-token' },
      });
      expect(byPodAddress.status).toBe(200);
      const anonymous = await request(wide.base, '/metrics', { headers: { Host: '10.1.2.3:3000' } });
      expect(anonymous.status).toBe(401);
      expect(wide.logLines.filter((l) => String(l.msg).includes('GATEWAY_METRICS_TOKEN'))).toHaveLength(0);
    } finally {
      await wide.close();
    }
  });

  it('protects /metrics with a token when one is configured', async () => {
    const guarded = await startGateway({
      upstreams: upstreamsOf(services),
      metricsToken: 'a-long-metrics-token',
    });
    try {
      expect((await request(guarded.base, '/metrics')).status).toBe(401);
      const ok = await request(guarded.base, '/metrics', {
        headers: { Authorization: 'Bearer a-long-metrics-token' },
      });
      expect(ok.status).toBe(200);
    } finally {
      await guarded.close();
    }
  });

  it('writes one JSON access-log line per request, naming who answered `target` (the logger carries `service`)', async () => {
    const res = await request(harness.base, '/api/lesson-plans/9?secret=query', {
      headers: { 'X-Request-Id': 'log-check-0042' },
    });
    expect(res.status).toBe(200);
    await new Promise((resolve) => setImmediate(resolve));
    const lines = harness.logLines.filter((l) => l.requestId === 'log-check-0042');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: 'request',
      method: 'GET',
      path: '/api/lesson-plans/9',
      status: 200,
      service: 'gateway',
      target: 'classroom',
      upstream: services.classroom.url,
    });
    expect(typeof lines[0].ms).toBe('number');
    // One "service" key per line: JSON parsers disagree on which of two would win.
    const raw = harness.rawLogLines.filter((l) => l.includes('log-check-0042'));
    expect(raw.map((l) => l.match(/"service":/g)?.length)).toEqual([1]);
  });
});

import { randomBytes } from 'node:crypto';
import { ROUTES, type ServiceName } from '../src/routes';
import { CONTENT_SECURITY_POLICY } from '../src/security-headers';
import type { FakeService } from './support/fake-service';
import {
  PUBLIC_ORIGIN,
  startAllServices,
  startGateway,
  upstreamsOf,
  type Harness,
} from './support/gateway-harness';
import { request } from './support/http-client';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const MB = 1024 * 1024;

let services: Record<ServiceName, FakeService>;
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
  it.each(ROUTES.map((r) => [r.sample, r.service] as const))('GET %s reaches %s', async (sample, service) => {
    const res = await request(harness.base, `${sample}?probe=${service}`);
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ service, url: `${sample}?probe=${service}` });
  });

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

  it('accepts the public origin, the request’s own origin and requests without Origin', async () => {
    expect((await post({ Origin: PUBLIC_ORIGIN })).status).toBe(200);
    expect((await post({ Origin: harness.base })).status).toBe(200);
    expect((await post({})).status).toBe(200);
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

  it('keeps serving after refusing bodies', async () => {
    expect((await request(harness.base, '/api/posts/public')).status).toBe(200);
  });
});

describe('security headers', () => {
  const expectSecurityHeaders = (headers: Record<string, unknown>) => {
    expect(headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(headers['permissions-policy']).toEqual(expect.stringContaining('camera=()'));
  };

  it('are on proxied answers, gateway errors and the gateway’s own endpoints', async () => {
    for (const path of ['/api/posts/public', '/api/missing', '/healthz', '/some/screen']) {
      const res = await request(harness.base, path);
      expectSecurityHeaders(res.headers);
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('allow the embeds and connections the SPA needs', () => {
    for (const part of [
      "default-src 'self'",
      'frame-src https://docs.google.com https://www.youtube.com https://www.youtube-nocookie.com',
      "img-src 'self' data: blob: https:",
      "media-src 'self' https: blob:",
      "connect-src 'self' ws: wss:",
      "style-src 'self' 'unsafe-inline'",
      "frame-ancestors 'self'",
      "object-src 'none'",
      "base-uri 'self'",
    ]) {
      expect(CONTENT_SECURITY_POLICY).toContain(part);
    }
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
      services: Record<string, { available: number; replicas: unknown[] }>;
    }>();
    expect(body.status).toBe('ready');
    expect(Object.keys(body.services).sort()).toEqual([
      'assessment',
      'chat',
      'classroom',
      'content',
      'identity',
    ]);
    expect(body.services.identity).toEqual({
      available: 1,
      replicas: [{ url: services.identity.url, up: true }],
    });
    expect(harness.gateway.isReady()).toBe(true);
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

  it('writes one JSON access-log line per request', async () => {
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
      service: 'classroom',
      upstream: services.classroom.url,
    });
    expect(typeof lines[0].ms).toBe('number');
  });
});

import http from 'node:http';
import { startFakeService, unusedPort, type FakeService } from './support/fake-service';
import { PUBLIC_ORIGIN, startGateway, waitFor, type Harness } from './support/gateway-harness';
import { rawRequest as request } from '@district/nest-common/testing';
import { UpstreamPool } from '../src/upstream-pool';

const running: Array<{ close(): Promise<void> } | FakeService> = [];

async function track<T extends { close(): Promise<void> } | FakeService>(item: Promise<T>): Promise<T> {
  const value = await item;
  running.push(value);
  return value;
}

afterEach(async () => {
  for (const item of running.splice(0).reverse()) {
    await ('kill' in item ? item.kill().catch(() => undefined) : item.close());
  }
});

function portOf(res: { json(): Record<string, unknown> }): number {
  return res.json().port as number;
}

describe('balancing across replicas', () => {
  it('sends traffic to both replicas in turn', async () => {
    const a = await track(startFakeService('identity'));
    const b = await track(startFakeService('identity'));
    const gw: Harness = await track(startGateway({ upstreams: { identity: [a.url, b.url] } }));
    const ports: number[] = [];
    for (let i = 0; i < 20; i++) ports.push(portOf(await request(gw.base, '/api/users')));
    expect(ports.filter((p) => p === a.port)).toHaveLength(10);
    expect(ports.filter((p) => p === b.port)).toHaveLength(10);
  });

  it('keeps every request succeeding when one replica is killed', async () => {
    const a = await track(startFakeService('content'));
    const b = await track(startFakeService('content'));
    const gw = await track(startGateway({ upstreams: { content: [a.url, b.url] }, passiveDownMs: 60_000 }));
    for (let i = 0; i < 6; i++) expect((await request(gw.base, '/api/posts/public')).status).toBe(200);
    await a.kill();

    // Reads that hit the dead replica are retried on the live one.
    const reads = await Promise.all(Array.from({ length: 30 }, () => request(gw.base, '/api/posts/public')));
    expect(reads.map((r) => r.status)).toEqual(Array(30).fill(200));
    expect(new Set(reads.map(portOf))).toEqual(new Set([b.port]));
    expect(gw.gateway.upstreamStatus().content).toEqual([
      { url: a.url, up: false },
      { url: b.url, up: true },
    ]);

    // Once marked down, the dead replica gets no writes either.
    const writes = await Promise.all(
      Array.from({ length: 10 }, () =>
        request(gw.base, '/api/posts', { method: 'POST', body: '{}', headers: { Origin: PUBLIC_ORIGIN } }),
      ),
    );
    expect(writes.map((r) => r.status)).toEqual(Array(10).fill(200));
  });

  it("sends a write that met a killed replica's refused connection to the other replica, body intact (ADR 0022)", async () => {
    const a = await track(startFakeService('assessment'));
    const b = await track(startFakeService('assessment'));
    // No active checks and a long passive mark: only the refused connections can tell the gateway.
    const gw = await track(
      startGateway({
        upstreams: { assessment: [a.url, b.url] },
        passiveDownMs: 60_000,
        healthCheckIntervalMs: 0,
      }),
    );
    await a.kill();
    const body = JSON.stringify({ quizId: 'q', userAnswers: [0, 1, 2], note: 'x'.repeat(20_000) });
    const writes = await Promise.all(
      Array.from({ length: 6 }, () =>
        request(gw.base, '/api/text-quiz-grades', {
          method: 'POST',
          body,
          headers: { Origin: PUBLIC_ORIGIN, 'Content-Type': 'application/json' },
        }),
      ),
    );
    expect(writes.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(new Set(writes.map(portOf))).toEqual(new Set([b.port]));
    expect(b.requests.filter((r) => r.method === 'POST').map((r) => [r.bodyBytes, r.complete])).toEqual(
      Array(6).fill([Buffer.byteLength(body), true]),
    );
  });

  it('routes by readiness: takes out a replica whose /readyz fails while its /healthz answers, and back when ready', async () => {
    const a = await track(startFakeService('assessment'));
    const b = await track(startFakeService('assessment'));
    const gw = await track(
      startGateway({
        upstreams: { assessment: [a.url, b.url] },
        healthCheckIntervalMs: 50,
        passiveDownMs: 100,
      }),
    );
    const status = () => gw.gateway.upstreamStatus().assessment.map((r) => r.up);

    // Alive (its /healthz answers 200) but not ready, as a service whose database is away: Kubernetes would take it
    // out of its Service, and so does the gateway (ADR 0043).
    a.healthStatus = 503;
    expect((await fetch(`${a.url}/healthz`)).status).toBe(200);
    await waitFor(() => status()[0] === false, 3000, 'replica a to be marked down');
    // A write is never sent to a replica known to be down, so no write can fail on it.
    const writes = await Promise.all(
      Array.from({ length: 10 }, () =>
        request(gw.base, '/api/quiz-grades', {
          method: 'POST',
          body: '{}',
          headers: { Origin: PUBLIC_ORIGIN },
        }),
      ),
    );
    expect(writes.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(writes.map(portOf))).toEqual(new Set([b.port]));

    a.healthStatus = 200;
    await waitFor(() => status()[0] === true, 3000, 'replica a to be back');
    const ports = new Set<number>();
    for (let i = 0; i < 4; i++) ports.add(portOf(await request(gw.base, '/api/quiz-grades')));
    expect(ports).toEqual(new Set([a.port, b.port]));
  });

  it('keeps a replica that answers its health check late available until three checks in a row time out', async () => {
    const a = await track(startFakeService('chat'));
    const b = await track(startFakeService('chat'));
    const pool = new UpstreamPool('chat', [a.url, b.url], {
      healthCheckIntervalMs: 0,
      healthCheckTimeoutMs: 200,
    });
    running.push({ close: async () => pool.close() });
    const up = () => pool.status()[0].up;

    // A burst: /readyz answers after the check's timeout while the replica still serves.
    a.healthDelayMs = 400;
    const seen: boolean[] = [];
    for (let i = 0; i < 2; i++) {
      await pool.checkAll();
      seen.push(up());
    }
    expect(seen).toEqual([true, true]);
    expect([pool.pick()?.url, pool.pick()?.url].sort()).toEqual([a.url, b.url].sort());

    // A third late answer in a row counts as down; one timely answer brings it back at once.
    await pool.checkAll();
    expect(up()).toBe(false);
    expect(pool.status()[1].up).toBe(true);
    a.healthDelayMs = 0;
    await pool.checkAll();
    expect(up()).toBe(true);

    // A refused connection is down at the first check: a dead process says so, no waiting for three.
    await a.kill();
    await pool.checkAll();
    expect(up()).toBe(false);
  });

  it('routes to no replica whose /readyz names another service or none, and says why once', async () => {
    const a = await track(startFakeService('content'));
    const b = await track(startFakeService('content'));
    const changes: Array<[string, boolean, string | undefined]> = [];
    const pool = new UpstreamPool('content', [a.url, b.url], {
      healthCheckIntervalMs: 0,
      onStatusChange: (replica, up, reason) => changes.push([replica.url, up, reason]),
    });
    running.push({ close: async () => pool.close() });
    const picks = () => new Set(Array.from({ length: 4 }, () => pool.pick()?.url));

    // Another stack's identity service on the port content was given: alive, but not content.
    a.healthName = 'identity';
    await pool.checkAll();
    expect(pool.status()).toEqual([
      { url: a.url, up: false },
      { url: b.url, up: true },
    ]);
    expect(picks()).toEqual(new Set([b.url]));
    await pool.checkAll();
    expect(changes).toEqual([[a.url, false, 'its /readyz names "identity", not "content"']]);

    // Any other program (an answer without a service's name) is kept out as well; with no replica left, none.
    b.healthName = undefined;
    await pool.checkAll();
    expect(pool.pick()).toBeUndefined();
    expect(changes[1]).toEqual([b.url, false, 'its /readyz names no service, not "content"']);

    // Content answering there again is routed to at once.
    a.healthName = 'content';
    b.healthName = 'content';
    await pool.checkAll();
    expect(picks()).toEqual(new Set([a.url, b.url]));
    expect(changes.slice(2)).toEqual([
      [a.url, true, undefined],
      [b.url, true, undefined],
    ]);

    // An answer too long to be ours is cut off, not read to its end.
    a.healthName = 'x'.repeat(5000);
    await pool.checkAll();
    expect(pool.status()[0].up).toBe(false);
    expect(changes[4]).toEqual([
      a.url,
      false,
      'its /readyz answer is over 1024 bytes: not a service of ours',
    ]);
  });

  it('uses a restarted replica on the same address again', async () => {
    const a = await track(startFakeService('classroom'));
    const port = a.port;
    const gw = await track(
      startGateway({ upstreams: { classroom: [a.url] }, healthCheckIntervalMs: 50, passiveDownMs: 100 }),
    );
    await a.kill();
    expect((await request(gw.base, '/api/lesson-plans')).status).toBe(503);
    await track(startFakeService('classroom', { port }));
    await waitFor(() => gw.gateway.upstreamStatus().classroom[0].up, 3000, 'restarted replica to be up');
    expect((await request(gw.base, '/api/lesson-plans')).status).toBe(200);
  });
});

describe('service unavailable', () => {
  it('answers JSON 503 with Retry-After when the only replica refuses connections', async () => {
    const port = await unusedPort();
    const gw = await track(startGateway({ upstreams: { assessment: [`http://127.0.0.1:${port}`] } }));
    for (const [method, path] of [
      ['GET', '/api/audio-quizzes'],
      ['POST', '/api/text-quiz-grades'],
    ] as const) {
      const res = await request(gw.base, path, { method, body: method === 'POST' ? '{}' : undefined });
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
      expect(res.json()).toMatchObject({
        statusCode: 503,
        message: 'The assessment service is not available right now. Please try again shortly.',
      });
    }
    expect(gw.gateway.upstreamStatus().assessment[0].up).toBe(false);
  });

  it('answers 503 for a service with no replica configured', async () => {
    const gw = await track(startGateway({ upstreams: {} }));
    const res = await request(gw.base, '/api/chatrooms');
    expect(res.status).toBe(503);
    expect(res.json()).toMatchObject({
      statusCode: 503,
      message: 'The chat service is not available right now. Please try again shortly.',
    });
  });

  it('answers 504 when a service stays silent', async () => {
    const slow = await track(startFakeService('content'));
    slow.override = (req) => req.url === '/api/posts/slow';
    const gw = await track(startGateway({ upstreams: { content: [slow.url] }, upstreamTimeoutMs: 200 }));
    const res = await request(gw.base, '/api/posts/slow');
    expect(res.status).toBe(504);
    expect(res.json()).toMatchObject({
      statusCode: 504,
      message: 'The content service took too long to answer. Please try again.',
    });
    expect((await request(gw.base, '/api/posts/fast')).status).toBe(200);
  });

  it('answers 502 when a service drops the connection mid-request, and does not replay a write', async () => {
    const flaky = await track(startFakeService('identity'));
    flaky.override = (req) => {
      if (req.url !== '/api/auth/login') return false;
      req.socket.destroy();
      return true;
    };
    const gw = await track(startGateway({ upstreams: { identity: [flaky.url] } }));
    const before = flaky.requests.length;
    const res = await request(gw.base, '/api/auth/login', { method: 'POST', body: '{}' });
    expect(res.status).toBe(502);
    expect(res.json()).toMatchObject({ statusCode: 502 });
    expect(flaky.requests.length - before).toBe(1);
  });
});

describe('upstream keep-alive', () => {
  it('reuses one upstream connection for 50 sequential requests', async () => {
    const svc = await track(startFakeService('content'));
    const gw = await track(startGateway({ upstreams: { content: [svc.url] } }));
    for (let i = 0; i < 50; i++) {
      // Each client request uses its own connection and asks to close it; the upstream side stays pooled.
      const res = await request(gw.base, `/api/posts/${i}`, { headers: { Connection: 'close' } });
      expect(res.status).toBe(200);
      expect(res.headers.connection).toBe('close');
    }
    expect(svc.requests).toHaveLength(50);
    expect(svc.connections).toBe(1);
    for (const seen of svc.requests) expect(seen.headers.connection).toBe('keep-alive');
  });

  it('keeps concurrent connections bounded by concurrency, not by request count', async () => {
    const svc = await track(startFakeService('content'));
    const gw = await track(startGateway({ upstreams: { content: [svc.url] } }));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 10 });
    try {
      for (let round = 0; round < 5; round++) {
        const answers = await Promise.all(
          Array.from({ length: 10 }, () => request(gw.base, '/api/categories', { agent })),
        );
        expect(answers.every((r) => r.status === 200)).toBe(true);
      }
    } finally {
      agent.destroy();
    }
    expect(svc.requests).toHaveLength(50);
    expect(svc.connections).toBeLessThanOrEqual(10);
  });

  it('retries a read whose pooled connection the service had closed', async () => {
    const svc = await track(startFakeService('content'));
    const gw = await track(startGateway({ upstreams: { content: [svc.url] } }));
    expect((await request(gw.base, '/api/posts/public')).status).toBe(200);
    // Close the pooled connection from the service side without the gateway noticing first.
    svc.override = (req) => {
      if (svc.requests.length !== 2) return false;
      req.socket.destroy();
      return true;
    };
    const res = await request(gw.base, '/api/posts/public');
    expect(res.status).toBe(200);
    expect(gw.gateway.upstreamStatus().content[0].up).toBe(true);
  });
});

describe('passing answers on', () => {
  it('streams a large answer intact to a slow reader, and HEAD answers without a body', async () => {
    const svc = await track(startFakeService('content'));
    const chunk = Buffer.alloc(64 * 1024, 'x');
    svc.override = (req, res) => {
      if (req.url !== '/api/posts/big') return false;
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': String(chunk.length * 80),
      });
      if (req.method === 'HEAD') {
        res.end();
        return true;
      }
      let sent = 0;
      const more = () => {
        while (sent < 80) {
          sent += 1;
          if (sent === 80) {
            res.end(chunk);
            return;
          }
          if (!res.write(chunk)) {
            res.once('drain', more);
            return;
          }
        }
      };
      more();
      return true;
    };
    const gw = await track(startGateway({ upstreams: { content: [svc.url] } }));
    const body = await new Promise<Buffer>((resolve, reject) => {
      http
        .get(`${gw.base}/api/posts/big`, (res) => {
          const parts: Buffer[] = [];
          // A reader slower than the service: the gateway must pause the upstream rather than buffer 5 MB.
          res.on('data', (part: Buffer) => {
            parts.push(part);
            res.pause();
            setTimeout(() => res.resume(), 1);
          });
          res.on('end', () => resolve(Buffer.concat(parts)));
          res.on('error', reject);
        })
        .on('error', reject);
    });
    expect(body.length).toBe(chunk.length * 80);
    expect(body.every((byte) => byte === 0x78)).toBe(true);

    const head = await request(gw.base, '/api/posts/big', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(chunk.length * 80));
    expect(head.body.length).toBe(0);
  });

  it('keeps every Set-Cookie and drops the upstream connection’s own headers', async () => {
    const svc = await track(startFakeService('identity'));
    svc.override = (req, res) => {
      if (req.url !== '/api/auth/me') return false;
      res.setHeader('Set-Cookie', ['a=1; Path=/', 'b=2; Path=/']);
      res.setHeader('Keep-Alive', 'timeout=1');
      res.setHeader('Content-Type', 'application/json');
      res.end('{}');
      return true;
    };
    const gw = await track(startGateway({ upstreams: { identity: [svc.url] } }));
    const res = await request(gw.base, '/api/auth/me', { headers: { Connection: 'close' } });
    expect(res.status).toBe(200);
    expect(res.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(res.headers['keep-alive']).toBeUndefined();
    expect(res.headers.connection).toBe('close');
  });

  it('stops the upstream request when the client leaves before the answer', async () => {
    const svc = await track(startFakeService('content'));
    let upstreamClosed = false;
    svc.override = (req, res) => {
      if (req.url !== '/api/posts/never') return false;
      res.on('close', () => {
        upstreamClosed = true;
      });
      return true;
    };
    const gw = await track(startGateway({ upstreams: { content: [svc.url] } }));
    await new Promise<void>((resolve) => {
      const client = http.get(`${gw.base}/api/posts/never`);
      client.on('error', () => resolve());
      setTimeout(() => {
        client.destroy();
        resolve();
      }, 200);
    });
    await waitFor(() => upstreamClosed, 5000, 'the upstream request to end');
  });
});

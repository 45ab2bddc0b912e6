import http from 'node:http';
import { createBareServer } from './bare-server';
import { newHistogram, recordMs, runAtRate, runClosedLoop, summarise } from './load-client';
import { close, listen } from './local-server.fixture';

describe('load clients (against a real local server)', () => {
  let server: http.Server;
  let origin: string;
  const seen: string[] = [];

  beforeAll(async () => {
    server = createBareServer({ '/api/auth/me': '{"id":"u1"}' });
    server.prependListener('request', (req: http.IncomingMessage) => seen.push(String(req.headers.cookie)));
    origin = await listen(server);
  });

  afterAll(() => close(server));

  it('holds the asked rate: every scheduled request is sent and answered, with the probe headers', async () => {
    seen.length = 0;
    const result = await runAtRate(
      { origin, path: '/api/auth/me', headers: { cookie: 'district_session=abc' } },
      { rate: 200, durationMs: 1000, connections: 10 },
    );
    expect(result.scheduled).toBe(200);
    expect(result.completed).toBe(200);
    expect(seen).toHaveLength(200);
    expect(new Set(seen)).toEqual(new Set(['district_session=abc']));
    expect(result).toMatchObject({ non2xx: 0, errors: 0, unanswered: 0 });
    expect(result.achievedRate).toBeGreaterThan(150);
    expect(result.achievedRate).toBeLessThanOrEqual(200);
    expect(result.latencyMs.p50).toBeGreaterThan(0);
    expect(result.latencyMs.p99).toBeGreaterThanOrEqual(result.latencyMs.p50);
    // Counting from the due time can only add to the time counted from the send.
    expect(result.latencyMs.max).toBeGreaterThanOrEqual(result.serviceTimeMs.max);
  });

  it('counts answers that are not 2xx', async () => {
    const result = await runAtRate(
      { origin, path: '/nowhere', headers: {} },
      { rate: 50, durationMs: 200, connections: 2 },
    );
    expect(result.completed).toBe(10);
    expect(result.non2xx).toBe(10);
  });

  it('reports requests a stalled server never answered, without waiting for them forever', async () => {
    const silent = http.createServer(() => undefined);
    const silentOrigin = await listen(silent);
    try {
      const result = await runAtRate(
        { origin: silentOrigin, path: '/', headers: {} },
        { rate: 20, durationMs: 500, connections: 20, drainMs: 300 },
      );
      expect(result.scheduled).toBe(10);
      expect(result.completed).toBe(0);
      expect(result.unanswered).toBe(10);
      expect(result.errors).toBe(0);
    } finally {
      await close(silent);
    }
  });

  it('runs a closed loop for the given time on the given connections', async () => {
    const result = await runClosedLoop(
      { origin, path: '/api/auth/me', headers: {} },
      { connections: 4, durationMs: 500 },
    );
    expect(result.requests).toBeGreaterThan(10);
    expect(result.reqPerSec).toBeCloseTo(result.requests / 0.5, 5);
    expect(result).toMatchObject({ non2xx: 0, errors: 0, tool: 'undici closed loop' });
    const missing = await runClosedLoop(
      { origin, path: '/nowhere', headers: {} },
      { connections: 2, durationMs: 200 },
    );
    expect(missing.non2xx).toBe(missing.requests);
  });

  it('summarises a histogram in milliseconds', () => {
    const h = newHistogram();
    for (let i = 1; i <= 100; i++) recordMs(h, i);
    const s = summarise(h);
    expect(s.p50).toBeCloseTo(50, 0);
    expect(s.p99).toBeCloseTo(99, 0);
    expect(s.max).toBeCloseTo(100, 0);
    expect(summarise(newHistogram())).toEqual({ mean: 0, p50: 0, p90: 0, p99: 0, p999: 0, max: 0 });
  });
});

import http from 'node:http';
import { createBareServer } from './bare-server';
import { close, listen } from './local-server.fixture';
import { toolVersion } from './machine-info';
import { parseWrkOutput, runWrk } from './wrk-runner';

const SAMPLE = `Running 10s test @ http://127.0.0.1:4000/api/auth/me
  1 threads and 50 connections
Requests/sec:   2000.00
WRK_JSON {"requests":20000,"durationUs":10000000,"bytes":5000000,"errors":{"connect":0,"read":1,"write":0,"status":3,"timeout":2},"latencyUs":{"mean":2500.5,"p50":2100,"p90":4000,"p99":9500,"max":30000}}
`;

describe('wrk runner', () => {
  it('reads the JSON line of wrk-report.lua', () => {
    expect(parseWrkOutput(SAMPLE)).toEqual({
      tool: 'wrk',
      durationSeconds: 10,
      requests: 20000,
      reqPerSec: 2000,
      latencyMs: { mean: 2.501, p50: 2.1, p90: 4, p99: 9.5, max: 30 },
      non2xx: 3,
      errors: 3,
    });
  });

  it('fails loudly when wrk printed no summary', () => {
    expect(() => parseWrkOutput('unable to connect to 127.0.0.1:1 Connection refused')).toThrow(
      'wrk printed no summary',
    );
  });

  // wrk is a Debian package (apt-get install -y wrk); machines without it run the undici fallback instead.
  const withWrk = toolVersion('wrk') !== undefined ? it : it.skip;

  withWrk('drives a real server, sends the headers and counts non-2xx answers', async () => {
    const cookies = new Set<string>();
    const server = createBareServer({ '/me': '{"ok":true}' });
    server.prependListener('request', (req: http.IncomingMessage) => cookies.add(String(req.headers.cookie)));
    const origin = await listen(server);
    try {
      const ok = await runWrk(
        { origin, path: '/me', headers: { cookie: 'a=b' } },
        { connections: 2, durationMs: 1000 },
      );
      expect(ok.requests).toBeGreaterThan(0);
      expect(ok.non2xx).toBe(0);
      expect(ok.latencyMs.p99).toBeGreaterThanOrEqual(ok.latencyMs.p50);
      expect([...cookies]).toEqual(['a=b']);
      const missing = await runWrk(
        { origin, path: '/elsewhere', headers: {} },
        { connections: 2, durationMs: 1000 },
      );
      expect(missing.non2xx).toBe(missing.requests);
    } finally {
      await close(server);
    }
  });
});

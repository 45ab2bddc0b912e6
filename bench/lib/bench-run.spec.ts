import { createBareServer } from './bare-server';
import { fetchAnswer, startBareServer, verifyAnswers } from './bench-run';
import { close, listen } from './local-server.fixture';

describe('benchmark run helpers', () => {
  const same = createBareServer({ '/a': '{"a":1}', '/b': '{"b":2}' });
  const other = createBareServer({ '/a': '{"a":1}', '/b': '{"b":3}' });
  let sameUrl: string;
  let otherUrl: string;

  beforeAll(async () => {
    [sameUrl, otherUrl] = await Promise.all([listen(same), listen(other)]);
  });

  afterAll(() => Promise.all([close(same), close(other)]));

  it('fetches an answer with its headers, and fails on anything but a 200', async () => {
    const { body, headers } = await fetchAnswer(sameUrl, { path: '/a', headers: {} });
    expect(body).toBe('{"a":1}');
    expect(headers.get('content-type')).toBe('application/json; charset=utf-8');
    await expect(fetchAnswer(sameUrl, { path: '/c', headers: {} })).rejects.toThrow(
      `GET ${sameUrl}/c answered 404: {"message":"Not found"}`,
    );
  });

  it('checks that every contender of a probe answers the same body', async () => {
    const request = (probe: string) => ({ path: `/${probe}`, headers: {} });
    const expected = { a: '{"a":1}', b: '{"b":2}' };
    const probes = [
      { id: 'a', contenders: ['bare', 'direct', 'gateway'] as const, fixedRate: true },
      { id: 'b', contenders: ['bare', 'direct'] as const, fixedRate: false },
    ];
    await expect(
      verifyAnswers({ bare: sameUrl, direct: sameUrl, gateway: otherUrl }, probes, request, expected),
    ).resolves.toBeUndefined();
    await expect(
      verifyAnswers({ bare: sameUrl, direct: otherUrl, gateway: sameUrl }, probes, request, expected),
    ).rejects.toThrow('direct answered /b with another body (7 bytes, expected 7)');
  });

  it('runs the bare server in its own process until stopped', async () => {
    const bare = await startBareServer({ '/x?limit=1': { body: '[1]', headers: { etag: '"e"' } } });
    try {
      expect(bare.pid).not.toBe(process.pid);
      const { body, headers } = await fetchAnswer(bare.url, { path: '/x?limit=1', headers: {} });
      expect(body).toBe('[1]');
      expect(headers.get('etag')).toBe('"e"');
    } finally {
      await bare.stop();
    }
    await expect(fetch(bare.url)).rejects.toThrow();
  });
});

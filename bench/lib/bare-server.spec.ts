import { createBareServer } from './bare-server';
import { close, listen } from './local-server.fixture';

describe('bare server', () => {
  const first = '[{"id":"a"}]';
  const deep = '[{"id":"b"}]';
  const me = '{"id":"00000000-0000-4000-8000-00000000d001","name":"Alex Admin","email":"admin@demo.school"}';
  const server = createBareServer({
    '/api/posts/public?limit=20': { body: first, headers: { etag: '"abc"', 'x-total-count': '10000' } },
    '/api/posts/public?page=200&limit=20': deep,
    '/api/auth/me': me,
  });
  let origin: string;

  beforeAll(async () => {
    origin = await listen(server);
  });

  afterAll(() => close(server));

  it('answers the exact body given for a path, as JSON, whatever the query string', async () => {
    for (const path of ['/api/auth/me', '/api/auth/me?x=1']) {
      const res = await fetch(`${origin}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.text()).toBe(me);
    }
  });

  it('tells probes of one route apart by their query string', async () => {
    expect(await (await fetch(`${origin}/api/posts/public?limit=20`)).text()).toBe(first);
    expect(await (await fetch(`${origin}/api/posts/public?page=200&limit=20`)).text()).toBe(deep);
    // Neither the path alone nor another query was given a body.
    expect((await fetch(`${origin}/api/posts/public`)).status).toBe(404);
    expect((await fetch(`${origin}/api/posts/public?limit=21`)).status).toBe(404);
  });

  it("sends the real endpoint's extra headers with the body", async () => {
    const res = await fetch(`${origin}/api/posts/public?limit=20`);
    expect(res.headers.get('etag')).toBe('"abc"');
    expect(res.headers.get('x-total-count')).toBe('10000');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(first)));
    const plain = await fetch(`${origin}/api/posts/public?page=200&limit=20`);
    expect(plain.headers.get('etag')).toBeNull();
    expect(plain.headers.get('cache-control')).toBe('no-store');
  });

  it('answers anything else with a JSON 404', async () => {
    const res = await fetch(`${origin}/api/users`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'Not found' });
  });
});

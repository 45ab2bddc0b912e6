import type { AddressInfo } from 'node:net';
import { createBareServer } from './bare-server';

describe('bare server', () => {
  const body = '{"id":"00000000-0000-4000-8000-00000000d001","name":"Alex Admin","email":"admin@demo.school"}';
  const server = createBareServer({ '/api/auth/me': body });
  let origin: string;

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('answers the exact body for its path, as JSON, whatever the query string', async () => {
    for (const path of ['/api/auth/me', '/api/auth/me?x=1']) {
      const res = await fetch(`${origin}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.text()).toBe(body);
    }
  });

  it('answers other paths with a JSON 404', async () => {
    const res = await fetch(`${origin}/api/users`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'Not found' });
  });
});

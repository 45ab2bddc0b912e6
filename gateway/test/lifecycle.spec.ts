import { startFakeService } from './support/fake-service';
import { startGateway } from './support/gateway-harness';
import { rawRequest as request } from '@district/nest-common/testing';

describe('shutdown', () => {
  it('lets in-flight requests finish, then stops accepting and reports not ready', async () => {
    const svc = await startFakeService('content');
    svc.override = (req, res) => {
      if (req.url !== '/api/posts/slow') return false;
      setTimeout(() => res.end('{"done":true}'), 200);
      return true;
    };
    const gw = await startGateway({ upstreams: { content: [svc.url] } });
    try {
      expect(gw.gateway.isReady()).toBe(true);
      const inFlight = request(gw.base, '/api/posts/slow');
      await new Promise((resolve) => setTimeout(resolve, 50));
      const closing = gw.close();
      expect(gw.gateway.isReady()).toBe(false);
      const res = await inFlight;
      expect(res.status).toBe(200);
      expect(res.text).toBe('{"done":true}');
      expect(res.headers.connection).toBe('close');
      await closing;
      await expect(request(gw.base, '/healthz')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    } finally {
      await gw.close();
      await svc.kill();
    }
  });

  it('cuts connections that outlive the grace period', async () => {
    const svc = await startFakeService('content');
    svc.override = (req) => req.url === '/api/posts/never';
    const gw = await startGateway({ upstreams: { content: [svc.url] }, shutdownGraceMs: 100 });
    try {
      const hanging = request(gw.base, '/api/posts/never').catch((err: NodeJS.ErrnoException) => err.code);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const started = Date.now();
      await gw.close();
      expect(Date.now() - started).toBeLessThan(2000);
      expect(await hanging).toBe('ECONNRESET');
    } finally {
      await svc.kill();
    }
  });
});

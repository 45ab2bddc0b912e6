import net from 'node:net';
import { startFakeService } from './support/fake-service';
import { startGateway } from './support/gateway-harness';

/** Writes raw bytes to the gateway and resolves with everything it answers before closing the socket. */
function rawExchange(base: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

function parse(answer: string): {
  status: number;
  headers: string;
  body: { statusCode: number; message: string; requestId: string };
} {
  const [head, body] = answer.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body: JSON.parse(body) };
}

/**
 * Found by the route fuzzer (fuzz/): a URL or headers past Node's 16 KiB limit, or a request line Node cannot
 * parse, never reach the handlers; Node answered them with a bare status line and no body. They now get the
 * platform's JSON error like every other 4xx.
 */
describe('requests Node cannot parse', () => {
  it('answers oversized headers (a 40 KB query string) with a JSON 431 with a message', async () => {
    const svc = await startFakeService('content');
    const gw = await startGateway({ upstreams: { content: [svc.url] } });
    try {
      const host = new URL(gw.base).host;
      const answer = parse(
        await rawExchange(
          gw.base,
          `GET /api/posts?q=${'%C3%A9'.repeat(7000)} HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
        ),
      );
      expect(answer.status).toBe(431);
      expect(answer.headers).toContain('content-type: application/json; charset=utf-8');
      expect(answer.body).toMatchObject({ statusCode: 431, message: 'Request headers too large' });
      expect(answer.body.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(svc.requests).toHaveLength(0);
    } finally {
      await gw.close();
      await svc.kill();
    }
  });

  it('lets a client still sending its body read the answer instead of a reset (the fuzzer’s PUT with a 17 KB query)', async () => {
    const svc = await startFakeService('content');
    const gw = await startGateway({ upstreams: { content: [svc.url] } });
    try {
      const { hostname, port } = new URL(gw.base);
      const body = Buffer.alloc(512 * 1024, 'z');
      const answer = await new Promise<string>((resolve, reject) => {
        // Half-open, as an HTTP client is: the answer's end does not stop it writing the rest of its request.
        const socket = net.connect({ port: Number(port), host: hostname, allowHalfOpen: true });
        const chunks: Buffer[] = [];
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.on('error', reject);
        socket.on('connect', async () => {
          socket.write(
            `PUT /api/posts/1?q=${'q'.repeat(17_000)} HTTP/1.1\r\nHost: ${hostname}\r\n` +
              `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
          );
          // The answer is out before the body arrives; the body then comes in pieces, as a client writes it.
          await new Promise((r) => setTimeout(r, 100));
          for (let at = 0; at < body.length && !socket.destroyed; at += 16 * 1024) {
            if (!socket.write(body.subarray(at, at + 16 * 1024)))
              await new Promise((r) => socket.once('drain', r));
            await new Promise((r) => setTimeout(r, 1));
          }
          socket.end(() => resolve(Buffer.concat(chunks).toString('utf8')));
        });
      });
      expect(parse(answer)).toMatchObject({
        status: 431,
        body: { statusCode: 431, message: 'Request headers too large' },
      });
      expect(svc.requests).toHaveLength(0);
    } finally {
      await gw.close();
      await svc.kill();
    }
  });

  it('answers a malformed request line with a JSON 400 with a message', async () => {
    const svc = await startFakeService('content');
    const gw = await startGateway({ upstreams: { content: [svc.url] } });
    try {
      const answer = parse(
        await rawExchange(gw.base, 'GET /api/posts HTTP/1.1\r\nHost: \u0000\r\nContent-Length: x\r\n\r\n'),
      );
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ statusCode: 400, message: 'Malformed request' });
    } finally {
      await gw.close();
      await svc.kill();
    }
  });
});

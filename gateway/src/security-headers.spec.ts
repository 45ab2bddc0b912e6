import http, { type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CONTENT_SECURITY_POLICY, GatewayResponse, STRICT_TRANSPORT_SECURITY } from './security-headers';

type Answer = (res: GatewayResponse) => void;

/** A server with the gateway's response class: each request is answered by the next `answer`. */
async function headsOf(answers: Answer[], overTls = false): Promise<IncomingMessage['headers'][]> {
  const queue = [...answers];
  const server = http.createServer({ ServerResponse: GatewayResponse }, (_req, res) => {
    const gatewayRes = res as GatewayResponse;
    gatewayRes.secure('request-id-1234', overTls);
    queue.shift()?.(gatewayRes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    const heads: IncomingMessage['headers'][] = [];
    for (let i = 0; i < answers.length; i++) {
      const res = await fetch(`http://127.0.0.1:${port}/`);
      await res.arrayBuffer();
      const head: IncomingMessage['headers'] = Object.fromEntries(res.headers);
      if (res.headers.getSetCookie().length > 0) head['set-cookie'] = res.headers.getSetCookie();
      heads.push(head);
    }
    return heads;
  } finally {
    server.close();
  }
}

const serviceHead: OutgoingHttpHeaders = { 'content-type': 'text/plain', 'content-length': '2' };

describe('GatewayResponse', () => {
  it('adds the request id and the security headers to a head written in one object, and HSTS only over TLS', async () => {
    const [plain] = await headsOf([(res) => res.writeHead(200, serviceHead).end('ok')]);
    expect(plain).toMatchObject({
      'content-type': 'text/plain',
      'x-request-id': 'request-id-1234',
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
      'cross-origin-resource-policy': 'same-origin',
    });
    expect(plain['strict-transport-security']).toBeUndefined();
    const [tls] = await headsOf([(res) => res.writeHead(200, 'Fine', serviceHead).end('ok')], true);
    expect(tls['strict-transport-security']).toBe(STRICT_TRANSPORT_SECURITY);
  });

  it("keeps the answer's own value of any of them, whatever its spelling and however it was set", async () => {
    const heads = await headsOf([
      (res) =>
        res
          .writeHead(200, { ...serviceHead, 'x-frame-options': 'DENY', 'X-Request-Id': 'own-id-5678' })
          .end('ok'),
      (res) => {
        res.setHeader('Content-Security-Policy', "default-src 'none'");
        res.setHeader('Set-Cookie', ['a=1', 'b=2']);
        res.writeHead(200, { 'x-frame-options': 'DENY' }).end('ok');
      },
      (res) => res.writeHead(200, ['Content-Type', 'text/plain', 'Referrer-Policy', 'no-referrer']).end('ok'),
    ]);
    expect(heads[0]).toMatchObject({ 'x-frame-options': 'DENY', 'x-request-id': 'own-id-5678' });
    expect(heads[1]).toMatchObject({
      'content-security-policy': "default-src 'none'",
      'x-frame-options': 'DENY',
      'set-cookie': ['a=1', 'b=2'],
      'x-request-id': 'request-id-1234',
      'x-content-type-options': 'nosniff',
    });
    expect(heads[2]).toMatchObject({
      'referrer-policy': 'no-referrer',
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-request-id': 'request-id-1234',
    });
  });

  it('adds them when Node writes the head itself (end without writeHead) and when headers were set ahead', async () => {
    const heads = await headsOf([
      (res) => res.end('ok'),
      (res) => {
        res.statusCode = 404;
        res.setHeader('Content-Type', 'application/json');
        res.end('{}');
      },
    ]);
    for (const head of heads) {
      expect(head).toMatchObject({ 'x-request-id': 'request-id-1234', 'x-content-type-options': 'nosniff' });
    }
    expect(heads[1]['content-type']).toBe('application/json');
  });
});

import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The baseline of the gateway benchmark: Node's own `http` server answering, by path, the exact JSON bodies
 * the real endpoints returned. No framework, no cookie check, no database: what "free" costs on this machine.
 */
export function createBareServer(bodies: Record<string, string>): http.Server {
  const answers = new Map(Object.entries(bodies).map(([route, body]) => [route, Buffer.from(body, 'utf8')]));
  const notFound = Buffer.from(JSON.stringify({ message: 'Not found' }));
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const body = answers.get(query === -1 ? url : url.slice(0, query));
    res.writeHead(body ? 200 : 404, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': (body ?? notFound).length,
      'cache-control': 'no-store',
    });
    res.end(body ?? notFound);
  });
  // The same keep-alive horizon as the gateway, so no side drops idle benchmark connections early.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return server;
}

/** `bare-server.ts <bodies.json>`: listens on a free loopback port and prints `{"url": ...}` on stdout. */
function main(): void {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: bare-server.ts <bodies.json>');
    process.exit(2);
  }
  const server = createBareServer(JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>);
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}`, pid: process.pid })}\n`);
  });
  process.on('SIGTERM', () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}

if (require.main === module) main();

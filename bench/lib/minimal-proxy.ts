import http from 'node:http';
import { serveForBench } from './child-processes';

/** Hop-by-hop headers (RFC 9110 §7.6.1): they describe one connection, so a proxy does not pass them on. */
const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
];

function withoutHopByHop(headers: http.IncomingHttpHeaders): http.IncomingHttpHeaders {
  const copy = { ...headers };
  for (const name of HOP_BY_HOP) delete copy[name];
  return copy;
}

/**
 * The floor of proxying in Node: a plain `http` server that sends every request on to one upstream over a
 * keep-alive agent (`http.request` + `pipe` both ways), with no routing, checks, headers of its own, logging or
 * metrics. What a gateway in its own process is measured against: the cost of the extra hop itself.
 */
export function createMinimalProxy(upstream: string): { server: http.Server; agent: http.Agent } {
  const target = new URL(upstream);
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    const forwarded = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: withoutHopByHop(req.headers),
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, withoutHopByHop(answer.headers));
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json; charset=utf-8' });
      res.end(res.headersSent ? undefined : JSON.stringify({ message: 'Bad gateway' }));
    });
    req.pipe(forwarded);
  });
  // The same keep-alive horizon as the gateway and the bare server, so no side drops idle benchmark connections early.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.on('close', () => agent.destroy());
  return { server, agent };
}

/** `minimal-proxy.ts <upstream-url>`: listens on a free loopback port and prints `{"url": ...}` on stdout. */
export function runMinimalProxy(upstream: string | undefined): void {
  if (!upstream) {
    console.error('usage: minimal-proxy.ts <upstream-url>');
    process.exit(2);
  }
  serveForBench(createMinimalProxy(upstream).server);
}

if (require.main === module) runMinimalProxy(process.argv[2]);

import { readFileSync } from 'node:fs';
import http from 'node:http';
import { serveForBench } from './child-processes';

/** What the bare server answers for one URL: the exact body, and optionally the headers the real endpoint sent. */
export type BareAnswer = string | { body: string; headers?: Record<string, string> };

/**
 * The baseline of the benchmarks: Node's own `http` server answering the exact JSON bodies the real endpoints
 * returned. No framework, no cookie check, no database: what "free" costs on this machine. A request is matched
 * on its whole URL (path and query) first, then on its path alone, so probes of one route with different query
 * strings each get their own body. Extra headers (an ETag, a total count) are sent as given, so the bytes on
 * the wire match the real endpoint's.
 */
export function createBareServer(answers: Record<string, BareAnswer>): http.Server {
  const byUrl = new Map(
    Object.entries(answers).map(([url, answer]) => {
      const { body, headers = {} } = typeof answer === 'string' ? { body: answer } : answer;
      return [url, { body: Buffer.from(body, 'utf8'), headers }];
    }),
  );
  const notFound = Buffer.from(JSON.stringify({ message: 'Not found' }));
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const answer = byUrl.get(url) ?? (query === -1 ? undefined : byUrl.get(url.slice(0, query)));
    const body = answer?.body ?? notFound;
    res.writeHead(answer ? 200 : 404, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': body.length,
      'cache-control': 'no-store',
      ...answer?.headers,
    });
    res.end(body);
  });
  // The same keep-alive horizon as the gateway, so no side drops idle benchmark connections early.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return server;
}

/** `bare-server.ts <answers.json>`: listens on a free loopback port and prints `{"url": ...}` on stdout. */
export function runBareServer(file: string | undefined): void {
  if (!file) {
    console.error('usage: bare-server.ts <answers.json>');
    process.exit(2);
  }
  serveForBench(createBareServer(JSON.parse(readFileSync(file, 'utf8')) as Record<string, BareAnswer>));
}

if (require.main === module) runBareServer(process.argv[2]);

// The floor of the classroom benchmark (--floor): the least a Node proxy does for the same answers — a bare
// `http` server passing the Range header on to the stand-in upstream and the answer back, with the same client
// and the same streaming as the classroom service's audio proxy (one undici Agent with keep-alive, `stream()`
// writing each chunk straight into the response, backpressure honoured). No framework, no session, no checks,
// no rate limit: what is left is Node's and the kernel's cost of moving the bytes through a process.
// Prints {"url","pid"} and stops on SIGTERM.
import { createServer } from 'node:http';
import { Agent } from 'undici';
import { serveForBench } from '../lib/child-processes';

const upstream = new URL(process.argv[2] ?? '');
const agent = new Agent({ keepAliveTimeout: 10_000 });
const PASSED_ON = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'etag'];

const server = createServer((req, res) => {
  const headers: Record<string, string> = {};
  if (typeof req.headers.range === 'string') headers.range = req.headers.range;
  agent
    .stream(
      { origin: upstream.origin, path: '/uc?export=download&id=bench-audio', method: 'GET', headers },
      ({ statusCode, headers: answer }) => {
        const out: Record<string, string> = {};
        for (const name of PASSED_ON) {
          const value = answer[name];
          if (typeof value === 'string') out[name] = value;
        }
        res.writeHead(statusCode, out);
        return res;
      },
    )
    .catch(() => res.destroy());
});
server.keepAliveTimeout = 60_000;
serveForBench(server);

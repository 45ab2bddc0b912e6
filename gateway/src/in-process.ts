import type { IncomingMessage, ServerResponse } from 'node:http';
import type { InProcessHandler } from '@district/nest-common';
import { sendJsonError } from './json-response';
import { tooSlowMessage } from './service-proxies';

export type { InProcessHandler };

/**
 * Hands a request that passed every check to a service running in this process (`--target=all`): the same
 * request and response objects go to the service's own request listener (its routing, hooks, limits and
 * closing rule, as for a request from its socket), so the answer is written straight onto the client's
 * connection without a loopback HTTP hop. `client` is the address the gateway decided; the service believes it
 * instead of the socket (`request.ip`). See docs/adr/0016-request-path.md.
 *
 * The upstream timeout is the proxy's: `timeoutMs` without a byte either way on the client's connection (a slow
 * upload or a streamed answer is not silence) gets a 504, or a cut connection once the answer has begun. What
 * the service writes after a 504 is dropped by its own Fastify (the reply counts as sent).
 */
export function handOver(
  local: InProcessHandler,
  req: IncomingMessage,
  res: ServerResponse,
  client: string,
  service: string,
  timeoutMs: number,
): void {
  const socket = req.socket;
  let seen = socket.bytesRead + socket.bytesWritten;
  const timer = setTimeout(() => {
    const now = socket.bytesRead + socket.bytesWritten;
    if (now !== seen) {
      seen = now;
      timer.refresh();
    } else if (!res.headersSent) {
      sendJsonError(res, 504, tooSlowMessage(service), { Connection: 'close' });
    } else {
      res.destroy();
    }
  }, timeoutMs);
  timer.unref();
  // 'close' comes once: `on` spares the wrapper `once` would allocate on every request.
  res.on('close', () => clearTimeout(timer));
  local(req, res, client);
}

import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Headers } from '@district/contracts';

/** Ids from a client or an outer proxy are kept when they are short and plain, so they can be logged safely. */
const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;
// Read once: the contracts' constants are re-exported through getters, which cost on every request.
const REQUEST_ID = Headers.requestId;

/** The request's id: the incoming `x-request-id` when acceptable, else a new UUID. Also written back on `req`. */
export function assignRequestId(req: IncomingMessage): string {
  const incoming = req.headers[REQUEST_ID];
  const id = typeof incoming === 'string' && ACCEPTABLE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  req.headers[REQUEST_ID] = id;
  return id;
}

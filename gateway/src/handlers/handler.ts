import type { IncomingMessage, ServerResponse } from 'node:http';

/** What the handlers share about one request; built once by `createGateway` before any handler runs. */
export interface RequestContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** The path without its query string; '' when the request target is not a path (the checks refuse it). */
  readonly pathname: string;
  readonly requestId: string;
  readonly proto: 'http' | 'https';
  /** The client sent `Expect: 100-continue`: it is answered only once the request passed the checks. */
  readonly expectsContinue: boolean;
  /** Who answers, for the access log and metrics: a service's name, `web`, `gateway` or `none`. */
  target: string;
  /** Where a proxied request went when it was not a replica's URL: `in-process` (the access log's `upstream`). */
  upstream?: string;
}

/**
 * One step of the gateway, tried in order. `true`: this step answers the request (now or later) and no
 * later step runs; `false`: not this step's request. A step that must look something up first returns a
 * promise; the others answer synchronously, so a proxied request costs no extra turn of the event loop.
 */
export interface GatewayHandler {
  readonly name: string;
  handle(ctx: RequestContext): boolean | Promise<boolean>;
}

import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import type { Dispatcher } from 'undici';

/**
 * One proxied HTTP request on undici (docs/adr/0016-request-path.md, "Proxying in the cluster"): the request goes
 * to a replica's `Pool` through `dispatch`, and the answer is written to the client as it arrives, with the
 * upstream paused while the client cannot take more. What to do with the outcome (retry, mark the replica, answer
 * 502/503/504) is the caller's: `ServiceProxies`.
 */

/** Hop-by-hop headers of an answer (RFC 9110 §7.6.1): they describe the upstream connection, not the answer. */
const HOP_BY_HOP_RESPONSE = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'trailer',
];

export interface DispatchOutcome {
  /** The upstream began to answer (headers received): nothing can be retried any more. */
  answered: boolean;
}

export interface UpstreamExchange {
  /** Stops the upstream request (the client left, or the gateway answered on its own). */
  abort(reason: Error): void;
}

/** Called when the exchange failed; `answered` says whether the client has been sent anything. */
export type DispatchFailed = (err: Error, outcome: DispatchOutcome) => void;

/**
 * Sends `req` to `dispatcher` and streams the answer into `res`. `body` is what to send as the request body: null
 * for none, or a stream the caller feeds (so it can count a chunked body against the limit as it passes).
 */
export function dispatchUpstream(
  dispatcher: Dispatcher,
  req: IncomingMessage,
  res: ServerResponse,
  body: Buffer | PassThrough | IncomingMessage | null,
  onFailed: DispatchFailed,
): UpstreamExchange {
  let controller: Dispatcher.DispatchController | undefined;
  let abortedEarly: Error | undefined;
  const outcome: DispatchOutcome = { answered: false };
  const handler: Dispatcher.DispatchHandler = {
    onRequestStart(ctrl) {
      controller = ctrl;
      if (abortedEarly) ctrl.abort(abortedEarly);
    },
    onResponseStart(ctrl, statusCode, headers, statusMessage) {
      // 1xx interim answers (the gateway answers Expect: 100-continue itself) are not passed on.
      if (statusCode < 200) return;
      outcome.answered = true;
      for (const name of HOP_BY_HOP_RESPONSE) if (headers[name] !== undefined) delete headers[name];
      res.writeHead(statusCode, statusMessage || undefined, headers as IncomingHttpHeaders);
    },
    onResponseData(ctrl, chunk) {
      if (!res.write(chunk)) {
        ctrl.pause();
        res.once('drain', () => ctrl.resume());
      }
    },
    onResponseEnd() {
      res.end();
    },
    onResponseError(_ctrl, err) {
      onFailed(err, outcome);
    },
  };
  dispatcher.dispatch(
    {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: req.headers as Record<string, string | string[]>,
      body,
      // Never replayed by undici itself: retries are the gateway's decision (only for reads, on another replica).
      idempotent: false,
    },
    handler,
  );
  return {
    abort(reason) {
      if (controller) controller.abort(reason);
      else abortedEarly = reason;
    },
  };
}

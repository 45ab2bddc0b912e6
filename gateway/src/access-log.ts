import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { accessLogger } from '@district/nest-common';
import type { GatewayMetrics } from './gateway-metrics';
import type { RequestContext } from './handlers/handler';

/**
 * One line and one metrics observation per request, when its answer is done. The gateway's logger is a child
 * carrying `service: 'gateway'`, so who answered is `target` (a service, `web`, `gateway` or `none`).
 */
export class AccessLog {
  /** Access lines carry only what the gateway fills in: no redaction or mixin needed (`accessLogger`). */
  private readonly logger: Logger;

  constructor(
    logger: Logger,
    private readonly metrics: GatewayMetrics,
    /** The replica a proxied request went to. */
    private readonly upstreamOf: (req: IncomingMessage) => string | undefined,
  ) {
    this.logger = accessLogger(logger);
  }

  track(ctx: RequestContext, started: number): void {
    const { req, res } = ctx;
    res.once('close', () => {
      const ms = performance.now() - started;
      // 499: the client went away before an answer was complete (nginx's convention).
      const status = res.writableFinished ? res.statusCode : 499;
      this.metrics.observe(ctx.target, status, ms / 1000);
      const entry = {
        method: req.method,
        path: ctx.pathname === '' ? String(req.url) : ctx.pathname,
        status,
        ms: Math.round(ms * 10) / 10,
        requestId: ctx.requestId,
        target: ctx.target,
        upstream: ctx.upstream ?? this.upstreamOf(req),
      };
      // Probes of the gateway's own endpoints are frequent and say nothing new.
      if (ctx.target === 'gateway') this.logger.debug(entry, 'request');
      else this.logger.info(entry, 'request');
    });
  }

  /** An upgrade's line: refused by the gateway, or answered by the upstream (101 or its refusal). */
  upgrade(
    req: IncomingMessage,
    pathname: string | undefined,
    requestId: string,
    target: string,
    started: number,
    status: number,
  ): void {
    const ms = performance.now() - started;
    this.metrics.observe(target, status, ms / 1000);
    this.logger.info(
      { method: req.method, path: pathname, status, ms: Math.round(ms * 10) / 10, requestId, target },
      'upgrade',
    );
  }
}

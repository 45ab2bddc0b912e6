import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import fastifyCookie from '@fastify/cookie';
import type { LoggerService } from '@nestjs/common';
import type { Logger } from 'pino';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { readPlatformConfig } from '../config/platform.config';
import { ACCEPTS_FORM } from '../http/request-rules';
import { accessLogger } from '../logging/logger';
import { normaliseRequestId, runWithRequestId } from '../logging/request-context';
import { startBusHandlers } from '../bus/transport/bus.transport';
import { ServiceMetrics } from '../health/metrics';
import { METRICS_TOKEN_NEEDED } from '../health/metrics-access';
import type { PlatformRuntime, ServiceDefinition, ServiceWarmUp } from '../runtime/runtime';
import { adoptGatewayView, inProcessHandler, isHandedOver, type InProcessHandler } from './in-process';

/** Default JSON body limit; routes that take files raise their own. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export interface RunningService {
  name: string;
  app: NestFastifyApplication;
  url: string;
  /** The service's request listener, for a gateway in the same process (no loopback hop). */
  handle: InProcessHandler;
  /**
   * Starts draining before a shutdown: /healthz and /readyz answer 503, so the gateway (and Kubernetes) stop
   * sending requests here, while requests that still arrive are served, each answer closing its connection so no
   * pooled connection is reused across the close (ADR 0022).
   */
  drain(): void;
  close(): Promise<void>;
}

/** The probes a draining service fails. */
const PROBES = new Set(['/healthz', '/readyz']);
/** Asked every few seconds by the gateway, the kubelet and Prometheus: neither logged nor counted. */
const PLATFORM_ROUTES = new Set(['/healthz', '/readyz', '/statusz', '/metrics']);

/** The longest a warm-up may delay a replica's start: past it the replica serves with what is warm. */
export const WARM_UP_MAX_MS = 10_000;

export interface ListenOptions {
  port: number;
  host: string;
  /**
   * Rounds of the service's warm-up (`ServiceDefinition.warmUp`) run before it listens: 0 or unset runs none (the
   * launcher sets it for a replica of its own, not for `--target=all`).
   */
  warmUpRounds?: number;
  /**
   * The listening socket's accept queue (the launcher's LISTEN_BACKLOG; Node's own default, 511, when unset): what
   * the kernel holds for a replica whose event loop is busy while a surge of clients connects. The kernel caps it at
   * `net.core.somaxconn`.
   */
  backlog?: number;
}

/**
 * Builds and starts one service as its own Nest application on Fastify (Fastify rather than Express:
 * the budget is ≥ 0.6 of a bare Node server). The same function serves `--target=all` (many per process)
 * and one-service pods.
 */
export async function startService(
  definition: ServiceDefinition,
  runtime: PlatformRuntime,
  listen: ListenOptions,
): Promise<RunningService> {
  const logger = runtime.logger.child({ service: definition.name });
  // The platform's section (TRUSTED_PROXIES, METRICS_TOKEN), its problems listed under the service's name.
  const platform = readPlatformConfig(runtime, { label: definition.name });
  const metricsToken = platform.METRICS_TOKEN;
  const adapter = new FastifyAdapter({
    logger: false,
    bodyLimit: DEFAULT_BODY_LIMIT,
    trustProxy: platform.TRUSTED_PROXIES,
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) =>
      normaliseRequestId(req.headers['x-request-id']),
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // Slugs are up to 120 characters; longer path segments are refused as too long.
    routerOptions: { maxParamLength: 256 },
    // Fastify answers a malformed or over-long URL before Nest sees it: same JSON shape as every other error.
    frameworkErrors: (error: { code?: string }, request: FastifyRequest, reply: FastifyReply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      void reply
        .code(tooLong ? 414 : 400)
        .header('x-request-id', request.id)
        .send({
          statusCode: tooLong ? 414 : 400,
          message: tooLong ? 'The address is too long' : 'Invalid address',
          requestId: request.id,
        });
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(definition.rootModule(runtime), adapter, {
    logger: nestLogger(logger),
    abortOnError: false,
    // The platform registers its own body parsers below: JSON everywhere, form bodies only where a route asks.
    bodyParser: false,
  });
  registerBodyParsers(app.getHttpAdapter().getInstance());
  await app.register(fastifyCookie);
  if (definition.configureApp) await definition.configureApp(app, runtime);
  const fastify = app.getHttpAdapter().getInstance();
  const metrics = app.get(ServiceMetrics);
  const access = accessLogger(logger);

  let draining = false;
  // Set while the warm-up's own requests are served (before the service listens): not logged, not counted.
  let warming = false;
  fastify.addHook('onRequest', (request, reply, done) => {
    // Handed over by a gateway in this process: the client, proto and host it decided, as through a hop.
    adoptGatewayView(request);
    reply.header('x-request-id', request.id);
    if (draining) {
      reply.header('connection', 'close');
      if (PROBES.has(request.url.split('?')[0])) {
        void reply.code(503).send({ status: 'draining', ready: false });
        return;
      }
    }
    runWithRequestId(request.id, done);
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    if (!warming && !PLATFORM_ROUTES.has(route)) {
      const seconds = reply.elapsedTime / 1000;
      metrics.httpDuration.observe([request.method, route, String(reply.statusCode)], seconds);
      // One access-log line per request per process: a gateway in this process that handed the request over
      // writes it. The path only: query strings can carry one-time codes (OIDC callback) that must not reach the logs.
      if (!isHandedOver(request.raw))
        access.info(
          {
            requestId: request.id,
            method: request.method,
            path: request.url.split('?')[0],
            status: reply.statusCode,
            ms: Math.round(reply.elapsedTime),
          },
          'request',
        );
    }
    done();
  });

  // /metrics without a token only while nothing outside this machine can connect.
  metrics.access.configure(metricsToken, listen.host);
  if (metrics.access.refusesAll)
    logger.warn({ host: listen.host }, `${METRICS_TOKEN_NEEDED} /metrics answers 403 until it is set.`);
  // Bus handlers (@EventPattern/@MessagePattern) run from before the service is reachable; app.close() stops
  // them before the shutdown hooks close the database.
  await startBusHandlers(app);
  if (definition.warmUp && listen.warmUpRounds) {
    warming = true;
    try {
      await warmUp(definition.warmUp, app, listen.warmUpRounds, logger);
    } finally {
      warming = false;
    }
  }
  await app.listen({ port: listen.port, host: listen.host, backlog: listen.backlog });
  const address = fastify.server.address();
  const port = typeof address === 'object' && address ? address.port : listen.port;
  const url = `http://${listen.host === '0.0.0.0' ? '127.0.0.1' : listen.host}:${port}`;
  if (definition.afterStart) await definition.afterStart(app, runtime);
  logger.info({ url }, `${definition.name} listening`);
  return {
    name: definition.name,
    app,
    url,
    handle: inProcessHandler(requestListenerOf(fastify.server)),
    drain: () => {
      if (!draining) logger.info('draining: probes answer 503 until the service closes');
      draining = true;
    },
    close: () => app.close(),
  };
}

/**
 * Runs a service's warm-up against a loopback server of its own request listener (real sockets, the same
 * Fastify instance and hooks), closed before the service listens. A warm-up that fails is logged and the replica
 * starts anyway: it is only slower at first.
 */
async function warmUp(
  warm: ServiceWarmUp,
  app: NestFastifyApplication,
  rounds: number,
  logger: Logger,
): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance();
  await fastify.ready();
  const server = createServer(requestListenerOf(fastify.server));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const started = performance.now();
  try {
    const { port } = server.address() as AddressInfo;
    const done = await warm.run({
      app,
      url: `http://127.0.0.1:${port}`,
      rounds,
      deadline: Date.now() + WARM_UP_MAX_MS,
    });
    logger.info({ rounds: done, asked: rounds, ms: Math.round(performance.now() - started) }, 'warmed up');
  } catch (err) {
    logger.warn(
      { err, ms: Math.round(performance.now() - started) },
      'warm-up failed: the replica starts without it',
    );
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** The listener Fastify gave its server: routing, its closing rule (503), hooks; exactly what a socket gets. */
function requestListenerOf(server: Server): (req: IncomingMessage, res: ServerResponse) => void {
  const listeners = server.listeners('request');
  if (listeners.length !== 1)
    throw new Error(`expected one request listener on the service's server, found ${listeners.length}`);
  return listeners[0] as (req: IncomingMessage, res: ServerResponse) => void;
}

/**
 * JSON for every route (Fastify's own parser: prototype poisoning refused). Form bodies only on routes marked
 * `@AcceptsForm()`; anywhere else they are a 415, like any other type the route does not take.
 */
function registerBodyParsers(fastify: FastifyInstance): void {
  const formType = 'application/x-www-form-urlencoded';
  fastify.addContentTypeParser(formType, { parseAs: 'string' }, (request, body, done) => {
    const config = request.routeOptions.config as unknown as Record<string, unknown> | undefined;
    if (config?.[ACCEPTS_FORM] !== true) {
      done(
        Object.assign(new Error(`Unsupported Media Type: ${formType}`), {
          statusCode: 415,
          code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
        }),
        undefined,
      );
      return;
    }
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
}

function nestLogger(logger: Logger): LoggerService {
  const fmt = (message: unknown, context?: unknown) => ({
    context: typeof context === 'string' ? context : undefined,
    msg: String(message),
  });
  return {
    log: (m, c) => logger.debug(fmt(m, c)),
    error: (m, trace, c) => logger.error({ ...fmt(m, c), trace }),
    warn: (m, c) => logger.warn(fmt(m, c)),
    debug: (m, c) => logger.debug(fmt(m, c)),
    verbose: (m, c) => logger.trace(fmt(m, c)),
    fatal: (m, c) => logger.fatal(fmt(m, c)),
  };
}

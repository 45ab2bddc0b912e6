import type { INestApplication } from '@nestjs/common';
import {
  Server,
  type CustomStrategy,
  type CustomTransportStrategy,
  type MessageHandler,
} from '@nestjs/microservices';
import { isObservable, lastValueFrom } from 'rxjs';
import type { ZodError, ZodType } from 'zod';
import { SubjectPatternSchemas, SubjectSchemas } from '@district/contracts';
import type { BusMessage, BusSubscription, EventBus, SubscribeOptions } from '../bus.port';
import { drain } from '../bus-drain';
import type { BusLogger } from '../bus-logger';
import { assertFilterSubject, assertPublishSubject, errorMessage, subjectMatches } from '../bus-rules';
import type { HandledOutcome, MessagingMetrics } from '../../health/messaging-metrics';
import type { InboxService } from '../outbox/inbox.service';
import { BusContext } from './bus-context';

/** The transport id of the platform's bus transport (`@EventPattern<string>(subject, BUS_TRANSPORT, extras)` names it). */
export const BUS_TRANSPORT = Symbol('BUS_TRANSPORT');

/**
 * The `extras` of `@EventPattern<string>(subject, extras)`. The `<string>` picks Nest's untyped overload: since
 * Nest 12 the keyed one types every argument after the payload as `unknown`, which a `ctx: BusContext` or a
 * handler taking no payload does not satisfy.
 */
export interface BusEventExtras {
  /** Durable consumer, `<service>-<what>` (e.g. `content-user-deleted`); also the inbox's consumer name. */
  durable: string;
  /**
   * Run the handler in an inbox transaction (`ctx.manager`), exactly once per durable. Default true; false only
   * for handlers that are idempotent on their own and keep their own transactions.
   */
  inbox?: boolean;
  retryDelayMs?: SubscribeOptions['retryDelayMs'];
  maxDeliver?: SubscribeOptions['maxDeliver'];
}

export interface BusTransportOptions {
  bus: EventBus;
  inbox: InboxService;
  logger: BusLogger;
  /** The service name: the queue group of its request handlers, and the prefix of its durables. */
  service: string;
  /** Subject → payload schema; `SubjectSchemas` from the contracts unless a test brings its own. */
  schemas?: Readonly<Record<string, ZodType>>;
  /**
   * Subject filter (`*.audit.recorded.v1`) → payload schema, for a subject absent from `schemas`: the families
   * of `SubjectPatternSchemas` from the contracts unless a test brings its own.
   */
  patternSchemas?: Readonly<Record<string, ZodType>>;
  /** How long close() waits for running handlers. */
  closeTimeoutMs?: number;
  /** Counts each delivery's outcome and the redeliveries (the service's /metrics). */
  metrics?: Pick<MessagingMetrics, 'handled' | 'redeliveries'>;
}

interface EventRoute {
  filter: string;
  durable: string;
  inbox: boolean;
  subscribe: SubscribeOptions;
  handler: MessageHandler;
}

/**
 * Runs a service's `@EventPattern`/`@MessagePattern` handlers on the bus port, so they work the same on the
 * NATS JetStream and the in-process bus. Nest wraps each handler (guards, interceptors, filters); this
 * transport subscribes one durable per event handler and answers requests in the service's queue group,
 * parses each payload by its subject's schema, and runs event handlers in the inbox's transaction. The
 * adapters already make the message's request id the current one and retry (with back-off) what throws.
 */
export class BusTransport extends Server implements CustomTransportStrategy {
  private readonly events: EventRoute[] = [];
  private readonly requests = new Map<string, MessageHandler>();
  private readonly subscriptions: BusSubscription[] = [];
  private readonly running = new Set<Promise<unknown>>();
  private readonly schemas: Readonly<Record<string, ZodType>>;
  private readonly patternSchemas: ReadonlyArray<readonly [string, ZodType]>;
  private closing = false;

  constructor(private readonly options: BusTransportOptions) {
    super();
    this.transportId = BUS_TRANSPORT;
    this.schemas = options.schemas ?? SubjectSchemas;
    this.patternSchemas = Object.entries(options.patternSchemas ?? SubjectPatternSchemas);
  }

  /**
   * Called by Nest for every handler at start. Checked here, so a handler that could never work stops the
   * service at start. Not chained per pattern as in the base class: two event handlers of one subject are two
   * durables, each retried and deduplicated on its own.
   */
  override addHandler(
    pattern: unknown,
    callback: MessageHandler,
    isEventHandler = false,
    extras: Record<string, unknown> = {},
  ): void {
    if (typeof pattern !== 'string') {
      throw new Error(`bus handlers take a subject as their pattern, not ${JSON.stringify(pattern)}`);
    }
    callback.isEventHandler = isEventHandler;
    callback.extras = extras;
    if (isEventHandler) {
      this.events.push(this.eventRoute(pattern, callback, extras));
      return;
    }
    assertPublishSubject(pattern);
    this.schemaOrThrow(pattern);
    if (this.requests.has(pattern)) throw new Error(`two @MessagePattern handlers for ${pattern}`);
    this.requests.set(pattern, callback);
  }

  async listen(callback: (err?: unknown) => void): Promise<void> {
    const { bus, service } = this.options;
    try {
      for (const route of this.events) {
        this.subscriptions.push(
          await bus.subscribe(
            route.filter,
            (message) => this.track(() => this.deliver(route, message)),
            route.subscribe,
          ),
        );
      }
      for (const [subject, handler] of this.requests) {
        this.subscriptions.push(
          await bus.reply(
            subject,
            (data, headers) => this.track(() => this.answer(subject, handler, data, headers)),
            service,
          ),
        );
      }
      this.options.logger.debug(
        { events: this.events.length, requests: this.requests.size },
        'bus handlers listening',
      );
      callback();
    } catch (err) {
      await this.close();
      callback(err);
    }
  }

  /**
   * Stops taking messages and waits (bounded) for running handlers. Nest calls it while the app closes, before
   * the shutdown hooks that close the database.
   */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.allSettled(this.subscriptions.splice(0).map((s) => s.unsubscribe()));
    const drained = await drain(this.running, this.options.closeTimeoutMs ?? 10_000);
    if (!drained) {
      this.options.logger.warn({ running: this.running.size }, 'bus handlers still running at shutdown');
    }
  }

  on(): never {
    throw new Error('the bus transport has no events to listen to');
  }

  unwrap<T>(): T {
    return this.options.bus as T;
  }

  private eventRoute(filter: string, handler: MessageHandler, extras: Record<string, unknown>): EventRoute {
    const { durable, inbox = true, retryDelayMs, maxDeliver } = extras as Partial<BusEventExtras>;
    const prefix = `${this.options.service}-`;
    if (typeof durable !== 'string' || !durable.startsWith(prefix) || durable.length === prefix.length) {
      throw new Error(
        `@EventPattern(${filter}) needs { durable: '${prefix}…' }: one durable per handler, named after the service`,
      );
    }
    if (this.events.some((e) => e.durable === durable))
      throw new Error(`two event handlers share durable ${durable}`);
    assertFilterSubject(filter);
    // A wildcard filter is checked per message; a concrete subject must have its schema now.
    if (!/[*>]/.test(filter)) this.schemaOrThrow(filter);
    return {
      filter,
      durable,
      inbox: inbox !== false,
      subscribe: { durable, retryDelayMs, maxDeliver },
      handler,
    };
  }

  private async deliver(route: EventRoute, message: BusMessage): Promise<void> {
    const metrics = this.options.metrics;
    if (message.deliveryCount > 1) metrics?.redeliveries.inc({ durable: route.durable });
    try {
      const outcome = await this.deliverOnce(route, message);
      metrics?.handled.inc({ durable: route.durable, outcome });
    } catch (err) {
      metrics?.handled.inc({ durable: route.durable, outcome: 'failed' });
      throw err;
    }
  }

  private async deliverOnce(route: EventRoute, message: BusMessage): Promise<HandledOutcome> {
    if (this.closing) throw new Error('the service is shutting down');
    const log = {
      durable: route.durable,
      subject: message.subject,
      messageId: message.id,
      deliveryCount: message.deliveryCount,
    };
    const schema = this.schemaOf(message.subject);
    const parsed = schema?.safeParse(message.data);
    if (!parsed?.success) {
      // Acknowledged: no retry can make it valid, and retrying would only delay the messages behind it.
      const problem = parsed ? describeIssues(parsed.error) : 'no schema for this subject';
      this.options.logger.error({ ...log, problem }, 'bus event does not match its schema; message dropped');
      return 'invalid';
    }
    const { subject, headers } = message;
    if (!route.inbox) {
      await this.invoke(route.handler, parsed.data, new BusContext([{ subject, headers, message }]));
      this.options.logger.debug(log, 'bus event handled');
      return 'processed';
    }
    const ran = await this.options.inbox.handleOnce(route.durable, message, async (manager) => {
      await this.invoke(route.handler, parsed.data, new BusContext([{ subject, headers, message, manager }]));
    });
    this.options.logger.debug(log, ran ? 'bus event handled' : 'bus event already handled; skipped');
    return ran ? 'processed' : 'duplicate';
  }

  private async answer(
    subject: string,
    handler: MessageHandler,
    data: unknown,
    headers: Record<string, string>,
  ): Promise<unknown> {
    if (this.closing) throw new Error('the service is shutting down');
    const parsed = this.schemaOrThrow(subject).safeParse(data);
    if (!parsed.success) throw new Error(`invalid request on ${subject}: ${describeIssues(parsed.error)}`);
    return this.invoke(handler, parsed.data, new BusContext([{ subject, headers }]));
  }

  /** Calls Nest's wrapped handler; a failure (thrown or an erroring observable) rejects with an Error. */
  private async invoke(handler: MessageHandler, data: unknown, context: BusContext): Promise<unknown> {
    try {
      const result: unknown = await handler(data, context);
      return isObservable(result) ? await lastValueFrom(result, { defaultValue: undefined }) : result;
    } catch (err) {
      // Nest's own RPC filter turns errors into `{ status: 'error', message }`; the bus wants an Error to log.
      throw err instanceof Error
        ? err
        : new Error(errorMessage((err as { message?: unknown })?.message ?? err));
    }
  }

  private track<T>(work: () => Promise<T>): Promise<T> {
    const task = work();
    const settled = task.then(
      () => undefined,
      () => undefined,
    );
    this.running.add(settled);
    void settled.finally(() => this.running.delete(settled));
    return task;
  }

  /** The subject's own schema, else its family's (a concrete subject matched against each pattern). */
  private schemaOf(subject: string): ZodType | undefined {
    if (Object.hasOwn(this.schemas, subject)) return this.schemas[subject];
    if (/[*>]/.test(subject)) return undefined;
    return this.patternSchemas.find(([filter]) => subjectMatches(filter, subject))?.[1];
  }

  private schemaOrThrow(subject: string): ZodType {
    const schema = this.schemaOf(subject);
    if (!schema)
      throw new Error(
        `no payload schema for ${subject}: add it to SubjectSchemas (or a family to SubjectPatternSchemas) in the contracts`,
      );
    return schema;
  }
}

function describeIssues(error: ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(payload)'}: ${i.message}`).join('; ');
}

/**
 * Connects the platform's bus transport to the app (hybrid, with the app's global guards, filters and
 * interceptors), initialises the app and starts the transport: from here on the app's
 * `@EventPattern`/`@MessagePattern` handlers run. Nest closes it with the app, before the shutdown hooks that
 * close the database. An app without the platform module (a bare test app) has no transport, only the init.
 */
export async function startBusHandlers(app: INestApplication): Promise<void> {
  const transport = transportOf(app);
  if (transport) app.connectMicroservice<CustomStrategy>({ strategy: transport }, { inheritAppConfig: true });
  await app.init();
  if (transport) await app.startAllMicroservices();
}

function transportOf(app: INestApplication): BusTransport | undefined {
  try {
    return app.get(BusTransport);
  } catch {
    return undefined;
  }
}

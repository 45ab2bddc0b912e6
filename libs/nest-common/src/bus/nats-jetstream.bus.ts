import type { ConsumerLag } from '../health/messaging-metrics';
import { randomUUID } from 'node:crypto';
import {
  AckPolicy,
  DeliverPolicy,
  DiscardPolicy,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  jetstream,
  jetstreamManager,
} from '@nats-io/jetstream';
import type {
  ConsumerConfig,
  ConsumerMessages,
  JetStreamClient,
  JetStreamManager,
  JsMsg,
} from '@nats-io/jetstream';
import { RequestError, TimeoutError, connect, headers as natsHeaders, nanos } from '@nats-io/transport-node';
import type { Msg, MsgHdrs, NatsConnection, Subscription } from '@nats-io/transport-node';
import type {
  BusHandler,
  BusMessage,
  BusSubscription,
  EventBus,
  PublishOptions,
  SubscribeOptions,
} from './bus.port';
import { drain, settleWithin } from './bus-drain';
import type { BusLogger } from './bus-logger';
import { BusRequestError } from './bus-request.error';
import {
  assertFilterSubject,
  assertPublishSubject,
  encodeJson,
  errorMessage,
  isReservedHeader,
  normalizeHeaders,
  retryDelay,
  subjectMatches,
  inRequestContext,
  intersectFilters,
} from './bus-rules';

export const DEFAULT_STREAM_NAME = 'DISTRICT_EVENTS';

export interface NatsJetStreamBusOptions {
  /** One server or a comma-separated list, e.g. `nats://nats-0:4222,nats://nats-1:4222`. */
  url: string;
  streamName?: string;
  /**
   * Subjects the stream stores; publishing outside them fails. No default: the launcher derives them from
   * its registry (`<service>.>` each), and every process must pass the same list, since each brings the
   * stream in line with its own.
   */
  subjects: readonly string[];
  logger: BusLogger;
  /** Connection name shown by the server (monitoring). */
  name?: string;
  /** Publishes with a message id already stored within this window are dropped by the server. */
  duplicateWindowMs?: number;
  /** How long the stream keeps messages (and so how far back a new durable starts). */
  maxAgeMs?: number;
  /** A message not acknowledged within this time is redelivered (handler crashed or hung). */
  ackWaitMs?: number;
  /** Defaults for subscriptions that do not set their own. */
  retryDelayMs?: number;
  maxDeliver?: number;
  /** Messages pulled ahead per subscription; small so a stopping replica strands few. */
  prefetch?: number;
  publishTimeoutMs?: number;
  requestTimeoutMs?: number;
  /**
   * Requests travel on `<requestPrefix>.<subject>`: request subjects (`identity.users.list`) share names with
   * event subjects, and a stream stores — and acknowledges — any core message on its subjects.
   */
  requestPrefix?: string;
  /** How long close() waits for running handlers before draining the connection. */
  closeTimeoutMs?: number;
}

type ResolvedOptions = Required<Omit<NatsJetStreamBusOptions, 'logger' | 'name' | 'url'>>;

const DEFAULTS: Omit<ResolvedOptions, 'subjects'> = {
  streamName: DEFAULT_STREAM_NAME,
  duplicateWindowMs: 120_000,
  maxAgeMs: 7 * 24 * 3600_000,
  ackWaitMs: 30_000,
  retryDelayMs: 1_000,
  maxDeliver: 12,
  prefetch: 16,
  publishTimeoutMs: 5_000,
  requestTimeoutMs: 5_000,
  requestPrefix: '_rpc',
  closeTimeoutMs: 10_000,
};

/** JetStream API error codes this adapter reacts to. */
const STREAM_NAME_IN_USE = 10058;
const CONSUMER_NAME_EXISTS = 10148;
const CONSUMER_ALREADY_EXISTS = 10105;

/** Body of every reply, so a replier's error reaches the requester as an error and not as data. */
type ReplyEnvelope = { ok: true; data: unknown } | { ok: false; error: { message: string } };

interface ActiveSubscription {
  stop(): Promise<void>;
}

/**
 * EventBus on NATS JetStream (cluster mode). Events are stored in one file-backed stream; each durable name
 * is a JetStream pull consumer shared by every replica that subscribes with it, so a message is handled once
 * per durable. Delivery is at least once: a handler that throws is retried with a growing delay (nak) until
 * maxDeliver, then logged and terminated. Requests use core NATS with queue groups.
 */
export class NatsJetStreamBus implements EventBus {
  private readonly subscriptions = new Set<ActiveSubscription>();
  private readonly inFlight = new Set<Promise<void>>();
  /** The durables this process consumes with: the ones whose lag it reports. */
  private readonly durables = new Set<string>();
  private connected = true;
  private closing = false;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly options: ResolvedOptions,
    private readonly logger: BusLogger,
  ) {
    void this.watchStatus();
  }

  static async connect(options: NatsJetStreamBusOptions): Promise<NatsJetStreamBus> {
    const resolved: ResolvedOptions = {
      ...DEFAULTS,
      ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)),
    } as ResolvedOptions;
    const probe = `${resolved.requestPrefix}.probe`;
    if (resolved.subjects.some((filter) => subjectMatches(filter, probe))) {
      throw new Error(`stream subjects must not cover the request prefix "${resolved.requestPrefix}"`);
    }
    const nc = await connect({
      servers: options.url.split(',').map((s) => s.trim()),
      name: options.name,
      // Keep trying for ever: a broker outage must delay work, not end the process's ability to publish.
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1_000,
    });
    try {
      const jsm = await jetstreamManager(nc);
      const bus = new NatsJetStreamBus(
        nc,
        jetstream(nc, { timeout: resolved.publishTimeoutMs }),
        jsm,
        resolved,
        options.logger,
      );
      await bus.ensureStream();
      return bus;
    } catch (err) {
      await nc.close();
      throw err;
    }
  }

  /** The stream's name, for operations and tests. */
  get streamName(): string {
    return this.options.streamName;
  }

  async publish(subject: string, data: unknown, options: PublishOptions = {}): Promise<void> {
    if (this.closing) throw new Error('the bus is closed');
    assertPublishSubject(subject);
    const given = normalizeHeaders(options.headers);
    const hdrs = natsHeaders();
    for (const [name, value] of Object.entries(given)) hdrs.set(name, value);
    const ack = await this.js.publish(subject, encodeJson(data), {
      msgID: options.id ?? randomUUID(),
      headers: hdrs,
      timeout: this.options.publishTimeoutMs,
    });
    if (ack.duplicate)
      this.logger.debug({ subject, messageId: options.id }, 'duplicate publish ignored by the stream');
  }

  async subscribe<T = unknown>(
    subject: string,
    handler: BusHandler<T>,
    options: SubscribeOptions,
  ): Promise<BusSubscription> {
    handler = inRequestContext(handler, (message) => message.headers);
    if (this.closing) throw new Error('the bus is closed');
    assertFilterSubject(subject);
    if (!options?.durable) throw new Error('subscribe() needs a durable name');
    const maxDeliver = options.maxDeliver ?? this.options.maxDeliver;
    const retryDelayMs = options.retryDelayMs ?? this.options.retryDelayMs;
    const parts: ActiveSubscription[] = [];
    try {
      for (const { name, filter } of this.consumersFor(options.durable, subject))
        parts.push(await this.consume(name, filter, handler as BusHandler, maxDeliver, retryDelayMs));
    } catch (err) {
      await Promise.allSettled(parts.map((p) => p.stop()));
      throw err;
    }
    return { unsubscribe: async () => void (await Promise.all(parts.map((p) => p.stop()))) };
  }

  /**
   * The JetStream consumers behind one durable. A filter inside one of the stream's subjects is one consumer of the
   * durable's name, as always. A filter across them (`*.audit.recorded.v1` over `identity.>`, `chat.>`…), which
   * JetStream before 2.10 refuses as one consumer's filter, is one consumer per stream subject it meets
   * (`<durable>--chat-audit-recorded-v1`), consumed together: the same messages, each still handled once per
   * durable.
   */
  private consumersFor(durable: string, filter: string): Array<{ name: string; filter: string }> {
    const slices = this.options.subjects
      .map((streamSubject) => intersectFilters(filter, streamSubject))
      .filter((slice): slice is string => slice !== null);
    if (slices.length === 0 || slices.includes(filter)) return [{ name: durable, filter }];
    return [...new Set(slices)].map((slice) => ({
      name: `${durable}--${slice.replace(/\*/g, 'any').replace(/>/g, 'all').replace(/\./g, '-')}`,
      filter: slice,
    }));
  }

  private async consume(
    durable: string,
    subject: string,
    handler: BusHandler,
    maxDeliver: number,
    retryDelayMs: number,
  ): Promise<ActiveSubscription> {
    await this.ensureConsumer(durable, subject, maxDeliver);
    this.durables.add(durable);
    const consumer = await this.js.consumers.get(this.options.streamName, durable);
    const messages: ConsumerMessages = await consumer.consume({ max_messages: this.options.prefetch });

    let stopping = false;
    const loop = (async () => {
      for await (const msg of messages) {
        if (stopping) {
          // Give it straight back so another replica takes it now rather than after ackWait.
          msg.nak();
          continue;
        }
        const task = this.handle(msg, handler, durable, maxDeliver, retryDelayMs);
        this.inFlight.add(task);
        try {
          await task;
        } finally {
          this.inFlight.delete(task);
        }
      }
    })().catch((err: unknown) => {
      if (!stopping) this.logger.error({ err, durable }, 'bus subscription stopped unexpectedly');
    });

    const active: ActiveSubscription = {
      stop: async () => {
        if (stopping) return;
        stopping = true;
        this.subscriptions.delete(active);
        // close() resolves only once the loop has taken its next message, i.e. after the running handler.
        // A hung handler must not hang shutdown: its message is redelivered elsewhere after ackWait.
        await settleWithin(Promise.all([messages.close(), loop]), this.options.closeTimeoutMs);
      },
    };
    this.subscriptions.add(active);
    return active;
  }

  async request<TReq = unknown, TRes = unknown>(
    subject: string,
    data: TReq,
    timeoutMs = this.options.requestTimeoutMs,
    headers?: Record<string, string>,
  ): Promise<TRes> {
    if (this.closing) throw BusRequestError.closed(subject);
    assertPublishSubject(subject);
    const given = normalizeHeaders(headers);
    const hdrs = natsHeaders();
    for (const [name, value] of Object.entries(given)) hdrs.set(name, value);
    let reply: Msg;
    try {
      reply = await this.nc.request(this.rpcSubject(subject), encodeJson(data), {
        timeout: timeoutMs,
        headers: hdrs,
      });
    } catch (err) {
      if (err instanceof RequestError && err.isNoResponders()) throw BusRequestError.noResponders(subject);
      if (err instanceof TimeoutError) throw BusRequestError.timeout(subject, timeoutMs);
      throw err;
    }
    const envelope = parseEnvelope(reply);
    if (!envelope) throw new BusRequestError('REMOTE', subject, `malformed reply on ${subject}`);
    if (!envelope.ok) throw new BusRequestError('REMOTE', subject, envelope.error.message);
    return envelope.data as TRes;
  }

  async reply<TReq = unknown, TRes = unknown>(
    subject: string,
    handler: (data: TReq, headers: Record<string, string>) => Promise<TRes>,
    queueGroup: string,
  ): Promise<BusSubscription> {
    handler = inRequestContext(handler, (_data, headers) => headers);
    if (this.closing) throw new Error('the bus is closed');
    assertFilterSubject(subject);
    const sub: Subscription = this.nc.subscribe(this.rpcSubject(subject), {
      queue: queueGroup,
      callback: (err, msg) => {
        if (err) {
          this.logger.warn({ err, subject }, 'reply subscription error');
          return;
        }
        const task = this.answer(
          msg,
          subject,
          handler as (data: unknown, headers: Record<string, string>) => Promise<unknown>,
        );
        this.inFlight.add(task);
        void task.finally(() => this.inFlight.delete(task));
      },
    });
    // The server must know the subscription before the caller advertises it (e.g. readiness).
    await this.nc.flush();
    const active: ActiveSubscription = {
      stop: async () => {
        this.subscriptions.delete(active);
        if (!sub.isClosed()) await sub.drain();
      },
    };
    this.subscriptions.add(active);
    return { unsubscribe: () => active.stop() };
  }

  isReady(): boolean {
    return this.connected && !this.closing && !this.nc.isClosed();
  }

  /** Each durable's lag, from the broker (for the consumer-lag gauges; read when /metrics is scraped). */
  async consumerLag(): Promise<ConsumerLag[]> {
    const out: ConsumerLag[] = [];
    for (const durable of this.durables) {
      const info = await this.jsm.consumers.info(this.options.streamName, durable);
      out.push({
        durable,
        pending: info.num_pending,
        ackPending: info.num_ack_pending,
        redelivered: info.num_redelivered,
      });
    }
    return out;
  }

  /** Stops pulling, lets running handlers finish (so they are acked), then drains the connection. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    await Promise.allSettled([...this.subscriptions].map((s) => s.stop()));
    const drained = await drain(this.inFlight, this.options.closeTimeoutMs);
    if (!drained)
      this.logger.warn({ running: this.inFlight.size }, 'bus closed while handlers were still running');
    if (!this.nc.isClosed()) await this.nc.drain();
  }

  private async handle(
    msg: JsMsg,
    handler: BusHandler,
    durable: string,
    maxDeliver: number,
    retryDelayMs: number,
  ): Promise<void> {
    const deliveryCount = msg.info.deliveryCount;
    const id = msg.headers?.get('Nats-Msg-Id') || `${this.options.streamName}:${msg.seq}`;
    const context = { durable, subject: msg.subject, messageId: id, deliveryCount };
    let message: BusMessage;
    try {
      message = {
        id,
        subject: msg.subject,
        data: msg.json(),
        headers: userHeaders(msg.headers),
        deliveryCount,
      };
    } catch (err) {
      // Unparseable data will never succeed; retrying it only delays the messages behind it.
      this.logger.error({ ...context, err }, 'bus message is not valid JSON; message dropped');
      msg.term();
      return;
    }
    try {
      await handler(message);
      msg.ack();
    } catch (err) {
      if (deliveryCount >= maxDeliver) {
        this.logger.error({ ...context, err }, 'bus handler failed on its last delivery; message dropped');
        msg.term();
        return;
      }
      this.logger.warn({ ...context, err }, 'bus handler failed; message will be redelivered');
      msg.nak(retryDelay(retryDelayMs, deliveryCount));
    }
  }

  private async answer(
    msg: Msg,
    subject: string,
    handler: (data: unknown, headers: Record<string, string>) => Promise<unknown>,
  ): Promise<void> {
    let envelope: ReplyEnvelope;
    try {
      const data = await handler(msg.json(), userHeaders(msg.headers));
      envelope = { ok: true, data: data ?? null };
    } catch (err) {
      this.logger.warn({ err, subject }, 'request handler failed');
      envelope = { ok: false, error: { message: errorMessage(err) } };
    }
    if (msg.reply) msg.respond(JSON.stringify(envelope));
  }

  private rpcSubject(subject: string): string {
    return `${this.options.requestPrefix}.${subject}`;
  }

  private async ensureStream(): Promise<void> {
    const { streamName, subjects, duplicateWindowMs, maxAgeMs } = this.options;
    const config = {
      name: streamName,
      subjects: [...subjects],
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      discard: DiscardPolicy.Old,
      duplicate_window: nanos(duplicateWindowMs),
      max_age: nanos(maxAgeMs),
    };
    try {
      await this.jsm.streams.add(config);
    } catch (err) {
      // Exists with other settings (an older deployment): bring the updatable ones in line.
      if (apiErrorCode(err) !== STREAM_NAME_IN_USE) throw err;
      const current = await this.jsm.streams.info(streamName);
      await this.jsm.streams.update(streamName, {
        ...current.config,
        subjects: config.subjects,
        duplicate_window: config.duplicate_window,
        max_age: config.max_age,
      });
    }
  }

  private async ensureConsumer(durable: string, filter: string, maxDeliver: number): Promise<void> {
    const config: Partial<ConsumerConfig> = {
      durable_name: durable,
      // A durable created after events were stored still receives them (within the stream's max age).
      deliver_policy: DeliverPolicy.All,
      ack_policy: AckPolicy.Explicit,
      filter_subject: filter,
      ack_wait: nanos(this.options.ackWaitMs),
      max_deliver: maxDeliver,
      max_ack_pending: 1_000,
    };
    try {
      await this.jsm.consumers.add(this.options.streamName, config);
    } catch (err) {
      const code = apiErrorCode(err);
      if (code !== CONSUMER_NAME_EXISTS && code !== CONSUMER_ALREADY_EXISTS) throw err;
      await this.jsm.consumers.update(this.options.streamName, durable, {
        filter_subject: filter,
        ack_wait: config.ack_wait,
        max_deliver: maxDeliver,
        max_ack_pending: config.max_ack_pending,
      });
    }
  }

  private async watchStatus(): Promise<void> {
    for await (const status of this.nc.status()) {
      if (status.type === 'disconnect') {
        this.connected = false;
        this.logger.warn({ server: status.server }, 'NATS connection lost; reconnecting');
      } else if (status.type === 'reconnect') {
        this.connected = true;
        this.logger.info({ server: status.server }, 'NATS connection restored');
      }
    }
  }
}

/** Caller headers only: JetStream's own (`Nats-Msg-Id`, …) are not part of the message as published. */
function userHeaders(hdrs: MsgHdrs | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!hdrs) return out;
  for (const [name, values] of hdrs) {
    if (!isReservedHeader(name) && values.length > 0) out[name] = values[0];
  }
  return out;
}

function parseEnvelope(reply: Msg): ReplyEnvelope | undefined {
  try {
    const value = reply.json<ReplyEnvelope>();
    if (value?.ok === true) return value;
    if (value?.ok === false && typeof value.error?.message === 'string') return value;
  } catch {
    // Falls through to "malformed".
  }
  return undefined;
}

function apiErrorCode(err: unknown): number | undefined {
  return err instanceof JetStreamApiError ? err.code : undefined;
}

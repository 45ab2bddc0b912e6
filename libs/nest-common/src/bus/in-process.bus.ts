import { randomUUID } from 'node:crypto';
import type {
  BusHandler,
  BusMessage,
  BusSubscription,
  EventBus,
  PublishOptions,
  SubscribeOptions,
} from './bus.port';
import type { BusLogger } from './bus-logger';
import { drain } from './bus-drain';
import { BusRequestError } from './bus-request.error';
import {
  assertFilterSubject,
  assertPublishSubject,
  encodeJson,
  errorMessage,
  normalizeHeaders,
  retryDelay,
  subjectMatches,
  inRequestContext,
} from './bus-rules';

export interface InProcessBusOptions {
  logger: BusLogger;
  /** Delay before a failed delivery is first retried (doubling each time), unless the subscription sets its own. */
  retryDelayMs?: number;
  /** Deliveries before a failing message is logged and dropped, unless the subscription sets its own. */
  maxDeliver?: number;
  /** A message id seen within this window is accepted but not delivered again (as JetStream's duplicate window). */
  duplicateWindowMs?: number;
  /**
   * Messages are kept this long (and at most `retainMax` of them) so that a durable created later still gets
   * them, as a JetStream consumer created with "deliver all" does.
   */
  retentionMs?: number;
  retainMax?: number;
  /** Default timeout of request(). */
  requestTimeoutMs?: number;
  /** How long close() waits for running handlers. */
  closeTimeoutMs?: number;
}

interface StoredMessage {
  id: string;
  subject: string;
  /** Kept as JSON so every handler gets its own copy, shaped exactly as it would be after NATS. */
  json: string;
  headers: Record<string, string>;
  storedAt: number;
}

interface Delivery {
  message: StoredMessage;
  deliveryCount: number;
}

interface Member {
  handler: BusHandler;
  busy: boolean;
}

/** One durable consumer: its members share the work, each message is handled by one of them. */
interface Durable {
  name: string;
  filter: string;
  members: Member[];
  /** Round-robin start, so replicas of a durable share the load. */
  next: number;
  ready: Delivery[];
  retryDelayMs: number;
  maxDeliver: number;
}

interface Replier {
  handler: (data: unknown, headers: Record<string, string>) => Promise<unknown>;
}

interface ReplyGroup {
  filter: string;
  queueGroup: string;
  members: Replier[];
  next: number;
}

const DEFAULTS = {
  retryDelayMs: 100,
  maxDeliver: 10,
  duplicateWindowMs: 120_000,
  retentionMs: 10 * 60_000,
  retainMax: 10_000,
  requestTimeoutMs: 5_000,
  closeTimeoutMs: 10_000,
};

/**
 * The event bus of standalone mode: JetStream's delivery semantics inside one process.
 * Each durable gets every matching message once (shared among its subscribers), failed handlers are
 * retried after a delay up to maxDeliver, ids are deduplicated within a window, and handlers always run
 * after publish() has returned. Nothing survives a restart — in standalone mode the outbox is what persists.
 */
export class InProcessBus implements EventBus {
  private readonly options: Required<Omit<InProcessBusOptions, 'logger'>>;
  private readonly logger: BusLogger;
  private readonly durables = new Map<string, Durable>();
  private readonly replyGroups: ReplyGroup[] = [];
  /** id → expiry time; insertion order is time order, so pruning stops at the first live entry. */
  private readonly seenIds = new Map<string, number>();
  private readonly retained: StoredMessage[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  /** Rejects a pending request because the bus closed. */
  private readonly pendingRequests = new Set<() => void>();
  private closed = false;

  constructor(options: InProcessBusOptions) {
    this.logger = options.logger;
    this.options = {
      retryDelayMs: options.retryDelayMs ?? DEFAULTS.retryDelayMs,
      maxDeliver: options.maxDeliver ?? DEFAULTS.maxDeliver,
      duplicateWindowMs: options.duplicateWindowMs ?? DEFAULTS.duplicateWindowMs,
      retentionMs: options.retentionMs ?? DEFAULTS.retentionMs,
      retainMax: options.retainMax ?? DEFAULTS.retainMax,
      requestTimeoutMs: options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs,
      closeTimeoutMs: options.closeTimeoutMs ?? DEFAULTS.closeTimeoutMs,
    };
  }

  async publish(subject: string, data: unknown, options: PublishOptions = {}): Promise<void> {
    this.assertOpen();
    assertPublishSubject(subject);
    const headers = normalizeHeaders(options.headers);
    const json = encodeJson(data);
    const now = Date.now();
    const id = options.id ?? randomUUID();
    this.pruneSeen(now);
    if (this.seenIds.has(id)) return;
    this.seenIds.set(id, now + this.options.duplicateWindowMs);

    const message: StoredMessage = { id, subject, json, headers, storedAt: now };
    this.retain(message, now);
    for (const durable of this.durables.values()) {
      if (subjectMatches(durable.filter, subject)) {
        durable.ready.push({ message, deliveryCount: 1 });
        this.schedule(durable);
      }
    }
  }

  async subscribe<T = unknown>(
    subject: string,
    handler: BusHandler<T>,
    options: SubscribeOptions,
  ): Promise<BusSubscription> {
    handler = inRequestContext(handler, (message) => message.headers);
    this.assertOpen();
    assertFilterSubject(subject);
    if (!options?.durable) throw new Error('subscribe() needs a durable name');
    let durable = this.durables.get(options.durable);
    if (!durable) {
      durable = {
        name: options.durable,
        filter: subject,
        members: [],
        next: 0,
        ready: [],
        retryDelayMs: this.options.retryDelayMs,
        maxDeliver: this.options.maxDeliver,
      };
      this.durables.set(durable.name, durable);
      // A new durable starts from the retained history, like a JetStream consumer with "deliver all".
      this.pruneRetained(Date.now());
      for (const message of this.retained) {
        if (subjectMatches(subject, message.subject)) durable.ready.push({ message, deliveryCount: 1 });
      }
    } else if (durable.filter !== subject) {
      throw new Error(`durable "${durable.name}" already filters "${durable.filter}", not "${subject}"`);
    }
    durable.retryDelayMs = options.retryDelayMs ?? durable.retryDelayMs;
    durable.maxDeliver = options.maxDeliver ?? durable.maxDeliver;
    const member: Member = { handler: handler as BusHandler, busy: false };
    durable.members.push(member);
    this.schedule(durable);

    const owner = durable;
    return {
      unsubscribe: async () => {
        // The durable itself stays: messages keep queueing for it until a subscriber comes back.
        const index = owner.members.indexOf(member);
        if (index >= 0) owner.members.splice(index, 1);
      },
    };
  }

  async request<TReq = unknown, TRes = unknown>(
    subject: string,
    data: TReq,
    timeoutMs = this.options.requestTimeoutMs,
    headers?: Record<string, string>,
  ): Promise<TRes> {
    if (this.closed) throw BusRequestError.closed(subject);
    assertPublishSubject(subject);
    const requestHeaders = normalizeHeaders(headers);
    const json = encodeJson(data);
    // As in NATS, every queue group listening gets the request once; the first answer wins.
    const targets = this.replyGroups
      .filter((g) => g.members.length > 0 && subjectMatches(g.filter, subject))
      .map((g) => g.members[g.next++ % g.members.length]);
    if (targets.length === 0) throw BusRequestError.noResponders(subject);

    return new Promise<TRes>((resolve, reject) => {
      let settled = false;
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.timers.delete(timer);
        this.pendingRequests.delete(abortClosed);
        fn();
      };
      const abortClosed = () => settle(() => reject(BusRequestError.closed(subject)));
      const timer = setTimeout(
        () => settle(() => reject(BusRequestError.timeout(subject, timeoutMs))),
        timeoutMs,
      );
      this.timers.add(timer);
      this.pendingRequests.add(abortClosed);
      for (const target of targets) {
        this.track(async () => {
          try {
            const result = await target.handler(JSON.parse(json), { ...requestHeaders });
            const answer = JSON.parse(encodeJson(result)) as TRes;
            settle(() => resolve(answer));
          } catch (err) {
            const remote = new BusRequestError('REMOTE', subject, errorMessage(err));
            settle(() => reject(remote));
          }
        });
      }
    });
  }

  async reply<TReq = unknown, TRes = unknown>(
    subject: string,
    handler: (data: TReq, headers: Record<string, string>) => Promise<TRes>,
    queueGroup: string,
  ): Promise<BusSubscription> {
    handler = inRequestContext(handler, (_data, headers) => headers);
    this.assertOpen();
    assertFilterSubject(subject);
    let group = this.replyGroups.find((g) => g.filter === subject && g.queueGroup === queueGroup);
    if (!group) {
      group = { filter: subject, queueGroup, members: [], next: 0 };
      this.replyGroups.push(group);
    }
    const replier: Replier = { handler: handler as Replier['handler'] };
    group.members.push(replier);
    const owner = group;
    return {
      unsubscribe: async () => {
        const index = owner.members.indexOf(replier);
        if (index >= 0) owner.members.splice(index, 1);
      },
    };
  }

  isReady(): boolean {
    return !this.closed;
  }

  /** Stops deliveries and retries, fails pending requests, and waits for running handlers to finish. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const abortClosed of [...this.pendingRequests]) abortClosed();
    for (const durable of this.durables.values()) durable.ready.length = 0;
    const drained = await drain(this.inFlight, this.options.closeTimeoutMs);
    if (!drained)
      this.logger.warn({ running: this.inFlight.size }, 'bus closed while handlers were still running');
    this.durables.clear();
    this.replyGroups.length = 0;
    this.retained.length = 0;
    this.seenIds.clear();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('the bus is closed');
  }

  /** Hands ready messages to idle members, always on a later tick so publish() never runs handlers inline. */
  private schedule(durable: Durable): void {
    while (!this.closed && durable.ready.length > 0) {
      const member = this.idleMember(durable);
      if (!member) return;
      const delivery = durable.ready.shift() as Delivery;
      member.busy = true;
      this.track(async () => {
        await new Promise<void>((resolve) => setImmediate(resolve));
        try {
          await this.deliver(durable, member, delivery);
        } finally {
          member.busy = false;
          this.schedule(durable);
        }
      });
    }
  }

  private idleMember(durable: Durable): Member | undefined {
    const count = durable.members.length;
    for (let i = 0; i < count; i++) {
      const member = durable.members[(durable.next + i) % count];
      if (!member.busy) {
        durable.next = (durable.next + i + 1) % count;
        return member;
      }
    }
    return undefined;
  }

  private async deliver(durable: Durable, member: Member, delivery: Delivery): Promise<void> {
    if (this.closed) return;
    const { message, deliveryCount } = delivery;
    const busMessage: BusMessage = {
      id: message.id,
      subject: message.subject,
      data: JSON.parse(message.json),
      headers: { ...message.headers },
      deliveryCount,
    };
    try {
      await member.handler(busMessage);
    } catch (err) {
      const context = {
        err,
        durable: durable.name,
        subject: message.subject,
        messageId: message.id,
        deliveryCount,
      };
      if (deliveryCount >= durable.maxDeliver) {
        this.logger.error(context, 'bus handler failed on its last delivery; message dropped');
        return;
      }
      this.logger.warn(context, 'bus handler failed; message will be redelivered');
      if (this.closed) return;
      const timer = setTimeout(
        () => {
          this.timers.delete(timer);
          durable.ready.push({ message, deliveryCount: deliveryCount + 1 });
          this.schedule(durable);
        },
        retryDelay(durable.retryDelayMs, deliveryCount),
      );
      this.timers.add(timer);
    }
  }

  private track(task: () => Promise<void>): void {
    const running = task().catch((err: unknown) => this.logger.error({ err }, 'in-process bus task failed'));
    this.inFlight.add(running);
    void running.finally(() => this.inFlight.delete(running));
  }

  private pruneSeen(now: number): void {
    for (const [id, expiresAt] of this.seenIds) {
      if (expiresAt > now) break;
      this.seenIds.delete(id);
    }
  }

  private retain(message: StoredMessage, now: number): void {
    this.retained.push(message);
    this.pruneRetained(now);
  }

  private pruneRetained(now: number): void {
    let drop = Math.max(0, this.retained.length - this.options.retainMax);
    while (drop < this.retained.length && this.retained[drop].storedAt + this.options.retentionMs <= now)
      drop++;
    if (drop > 0) this.retained.splice(0, drop);
  }
}

import type { NumberedEntry, NumberedLogOptions, NumberedLogRead, PubSub } from './pubsub.port';
import { positiveTtl } from './ttl';

interface NumberedLog {
  last: number;
  entries: NumberedEntry[];
  /** Epoch ms after which the entries are dropped (the numbers stay). */
  expiresAt: number;
}

/**
 * What a reader after `after` gets from a log's kept entries (tombstones included, numbered in order; those after
 * `after` at least, with `oldest` the lowest number kept at all): the live entries, and `truncated` when a number
 * after `after` is neither kept nor a tombstone (lost to the limit or expiry). Shared by both adapters.
 */
export function readNumbered(
  kept: readonly NumberedEntry[],
  last: number,
  after: number,
  oldest: number = kept.length > 0 ? kept[0].seq : last + 1,
): NumberedLogRead {
  const entries = kept.filter((e) => e.seq > after && e.entry !== '').map((e) => ({ ...e }));
  return { entries, last, truncated: after < last && oldest > after + 1 };
}

export interface MemoryPubSubOptions {
  /** Told about handlers that throw (a throwing handler never stops delivery to the others). */
  onHandlerError?: (err: unknown, channel: string) => void;
}

/**
 * Pub/sub inside one process (standalone mode). Like Redis, delivery happens after publish() returns and in
 * publish order, and only subscribers present at publish time get the message.
 */
export class MemoryPubSub implements PubSub {
  private readonly channels = new Map<string, Set<(message: string) => void>>();
  private readonly logs = new Map<string, NumberedLog>();
  /** `once` keys of appends: the number each got, and when it is forgotten (oldest first). */
  private readonly appended = new Map<string, { seq: number; expiresAt: number }>();
  private closed = false;

  constructor(private readonly options: MemoryPubSubOptions = {}) {}

  async publish(channel: string, message: string): Promise<void> {
    if (this.closed) throw new Error('pub/sub is closed');
    const handlers = this.channels.get(channel);
    if (!handlers || handlers.size === 0) return;
    const targets = [...handlers];
    setImmediate(() => {
      for (const handler of targets) {
        // Unsubscribed in the meantime: a real broker would not deliver either.
        if (!handlers.has(handler)) continue;
        try {
          handler(message);
        } catch (err) {
          this.options.onHandlerError?.(err, channel);
        }
      }
    });
  }

  async appendAndPublish(
    channel: string,
    key: string,
    entry: string,
    options: NumberedLogOptions,
  ): Promise<number> {
    if (this.closed) throw new Error('pub/sub is closed');
    const log = this.log(key, true) as NumberedLog;
    if (options.keep < 1) throw new Error('a numbered log keeps at least one entry');
    const now = Date.now();
    for (const [k, v] of this.appended) {
      if (v.expiresAt > now) break;
      this.appended.delete(k);
    }
    const first = options.once && this.appended.get(options.once.key);
    if (first && first.expiresAt > now) return -first.seq;
    log.last = Math.max(log.last, Math.floor(options.floor ?? 0));
    const seq = ++log.last;
    log.entries.push({ seq, entry });
    if (log.entries.length > options.keep) log.entries.splice(0, log.entries.length - options.keep);
    log.expiresAt = now + positiveTtl(options.ttlMs);
    if (options.once) {
      // Re-inserted at the end, so the map stays (nearly) in expiry order for the sweep above.
      this.appended.delete(options.once.key);
      this.appended.set(options.once.key, { seq, expiresAt: now + positiveTtl(options.once.ttlMs) });
    }
    await this.publish(channel, `${seq} ${entry}`);
    return seq;
  }

  async readLog(key: string, after: number): Promise<NumberedLogRead> {
    if (this.closed) throw new Error('pub/sub is closed');
    const log = this.log(key);
    if (!log) return { entries: [], last: 0, truncated: false };
    return readNumbered(log.entries, log.last, after);
  }

  async removeFromLog(key: string, seq: number): Promise<boolean> {
    if (this.closed) throw new Error('pub/sub is closed');
    const found = this.log(key)?.entries.find((e) => e.seq === seq && e.entry !== '');
    if (!found) return false;
    // A tombstone, so a reader can tell a removed entry from one lost to the limit or expiry.
    found.entry = '';
    return true;
  }

  async removeFromLogs(keyPrefix: string, needle: string): Promise<number> {
    if (this.closed) throw new Error('pub/sub is closed');
    let removed = 0;
    for (const key of [...this.logs.keys()]) {
      if (!key.startsWith(keyPrefix)) continue;
      for (const e of this.log(key)?.entries ?? []) {
        if (e.entry === '' || !e.entry.includes(needle)) continue;
        e.entry = '';
        removed++;
      }
    }
    return removed;
  }

  async deleteLog(key: string): Promise<void> {
    this.logs.delete(key);
  }

  async subscribe(channel: string, handler: (message: string) => void): Promise<() => Promise<void>> {
    if (this.closed) throw new Error('pub/sub is closed');
    // Wrapped so the same function subscribed twice is two subscriptions, as with Redis-backed handlers.
    const subscription = (message: string) => handler(message);
    let handlers = this.channels.get(channel);
    if (!handlers) {
      handlers = new Set();
      this.channels.set(channel, handlers);
    }
    handlers.add(subscription);
    return async () => {
      const current = this.channels.get(channel);
      if (!current) return;
      current.delete(subscription);
      if (current.size === 0) this.channels.delete(channel);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.channels.clear();
    this.logs.clear();
    this.appended.clear();
  }

  /** The log with expired entries dropped (its numbers stay); created when asked. */
  private log(key: string, create = false): NumberedLog | undefined {
    let log = this.logs.get(key);
    if (!log) {
      if (!create) return undefined;
      log = { last: 0, entries: [], expiresAt: 0 };
      this.logs.set(key, log);
    }
    if (log.entries.length > 0 && log.expiresAt <= Date.now()) log.entries = [];
    return log;
  }
}

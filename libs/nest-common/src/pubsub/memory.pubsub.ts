import type { PubSub } from './pubsub.port';

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
  }
}

import type Redis from 'ioredis';
import type { BusLogger } from '../bus/bus-logger';
import type { PubSub } from './pubsub.port';
import { openRedis, quietly, type RedisConnection } from './redis-connection';

export interface RedisPubSubOptions {
  /** Prepended to every channel, so deployments (and test runs) sharing a Redis do not hear each other. */
  prefix?: string;
  logger?: BusLogger;
}

/**
 * Pub/sub on Redis (cluster mode). A connection in subscriber mode cannot run other commands, so subscriptions
 * use their own connection, duplicated from the command one. ioredis re-subscribes after a reconnect; messages
 * published while disconnected are lost, as the port allows.
 */
export class RedisPubSub implements PubSub {
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly ownsPublisher: boolean;
  private readonly prefix: string;
  private readonly handlers = new Map<string, Set<(message: string) => void>>();
  private closed = false;

  constructor(
    connection: RedisConnection,
    private readonly options: RedisPubSubOptions = {},
  ) {
    const { client, owned } = openRedis(connection);
    this.publisher = client;
    this.ownsPublisher = owned;
    this.subscriber = client.duplicate();
    this.prefix = options.prefix ?? '';
    this.subscriber.on('message', (channel: string, message: string) => this.dispatch(channel, message));
    this.subscriber.on('error', (err: Error) => this.options.logger?.warn({ err }, 'redis subscriber error'));
  }

  async publish(channel: string, message: string): Promise<void> {
    if (this.closed) throw new Error('pub/sub is closed');
    await this.publisher.publish(this.prefix + channel, message);
  }

  async subscribe(channel: string, handler: (message: string) => void): Promise<() => Promise<void>> {
    if (this.closed) throw new Error('pub/sub is closed');
    const full = this.prefix + channel;
    const subscription = (message: string) => handler(message);
    let set = this.handlers.get(full);
    if (!set) {
      set = new Set();
      this.handlers.set(full, set);
    }
    set.add(subscription);
    // Always awaited (also for later handlers) so the caller knows the server has the subscription.
    await this.subscriber.subscribe(full);
    return async () => {
      const current = this.handlers.get(full);
      if (!current || !current.delete(subscription) || current.size > 0) return;
      this.handlers.delete(full);
      if (!this.closed) await this.subscriber.unsubscribe(full);
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.handlers.clear();
    await quietly(this.subscriber.quit());
    if (this.ownsPublisher) await quietly(this.publisher.quit());
  }

  private dispatch(channel: string, message: string): void {
    const set = this.handlers.get(channel);
    if (!set) return;
    for (const handler of set) {
      try {
        handler(message);
      } catch (err) {
        this.options.logger?.error({ err, channel }, 'pub/sub handler failed');
      }
    }
  }
}

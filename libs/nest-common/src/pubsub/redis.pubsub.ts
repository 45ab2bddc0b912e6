import type Redis from 'ioredis';
import type { BusLogger } from '../bus/bus-logger';
import { readNumbered } from './memory.pubsub';
import type { NumberedEntry, NumberedLogOptions, NumberedLogRead, PubSub } from './pubsub.port';
import { openRedis, quietly, type RedisConnection } from './redis-connection';
import { literalPattern, redisScript, runScript } from './redis-script';
import { positiveTtl } from './ttl';

/*
 * Numbered logs: `<key>:n` holds the last number (no expiry: numbers never repeat while Redis keeps its data),
 * `<key>:e` is a sorted set of `"<seq> <entry>"` scored by seq, expiring with the log. A removed entry stays as
 * the tombstone `"<seq> "` so readers can tell it from one lost to the limit or expiry. An append made `once` also
 * sets its own key (the third) to the number it got, for `once.ttlMs`; while that key lives, the same append
 * answers minus that number and does nothing else.
 */
const APPEND = redisScript(`
if KEYS[3] then
  local first = redis.call('GET', KEYS[3])
  if first then return -tonumber(first) end
end
local floor = tonumber(ARGV[5]) or 0
if tonumber(redis.call('GET', KEYS[1]) or '0') < floor then redis.call('SET', KEYS[1], floor) end
local seq = redis.call('INCR', KEYS[1])
redis.call('ZADD', KEYS[2], seq, seq .. ' ' .. ARGV[1])
local keep = tonumber(ARGV[2])
local size = redis.call('ZCARD', KEYS[2])
if size > keep then redis.call('ZREMRANGEBYRANK', KEYS[2], 0, size - keep - 1) end
redis.call('PEXPIRE', KEYS[2], ARGV[3])
redis.call('PUBLISH', ARGV[4], seq .. ' ' .. ARGV[1])
if KEYS[3] then redis.call('SET', KEYS[3], seq, 'PX', ARGV[6]) end
return seq
`);

/**
 * { last, the oldest kept number ('' when none), the kept members numbered after ARGV[1] in order } in one atomic
 * read: a join (nothing wanted) or a rejoin (a few) does not get the whole kept log (200 entries, ~60 KB) to drop.
 */
const READ = redisScript(`
local last = redis.call('GET', KEYS[1]) or '0'
local oldest = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
return { last, oldest[2] or '', redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. ARGV[1], '+inf') }
`);

const REMOVE = redisScript(`
local found = redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[1], ARGV[1])
if #found == 0 or found[1] == ARGV[1] .. ' ' then return 0 end
redis.call('ZREMRANGEBYSCORE', KEYS[1], ARGV[1], ARGV[1])
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[1] .. ' ')
return 1
`);

const REMOVE_MATCHING = redisScript(`
local items = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
local removed = 0
for i = 1, #items, 2 do
  local member, seq = items[i], items[i + 1]
  if member ~= seq .. ' ' and string.find(member, ARGV[1], #seq + 2, true) then
    redis.call('ZREM', KEYS[1], member)
    redis.call('ZADD', KEYS[1], seq, seq .. ' ')
    removed = removed + 1
  end
end
return removed
`);

function parseMember(member: string): NumberedEntry {
  const space = member.indexOf(' ');
  return { seq: Number(member.slice(0, space)), entry: member.slice(space + 1) };
}

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
    // No ready check on the subscriber: its INFO can race the first SUBSCRIBE of a connection that is still
    // connecting, and Redis then refuses it ("Connection in subscriber mode, only subscriber commands may be
    // used" — ioredis#2037, seen in CI); a connection that only subscribes has nothing to wait for.
    this.subscriber = client.duplicate({ enableReadyCheck: false });
    this.prefix = options.prefix ?? '';
    this.subscriber.on('message', (channel: string, message: string) => this.dispatch(channel, message));
    this.subscriber.on('error', (err: Error) => this.options.logger?.warn({ err }, 'redis subscriber error'));
  }

  async publish(channel: string, message: string): Promise<void> {
    if (this.closed) throw new Error('pub/sub is closed');
    await this.publisher.publish(this.prefix + channel, message);
  }

  async appendAndPublish(
    channel: string,
    key: string,
    entry: string,
    options: NumberedLogOptions,
  ): Promise<number> {
    if (this.closed) throw new Error('pub/sub is closed');
    if (options.keep < 1) throw new Error('a numbered log keeps at least one entry');
    const k = this.prefix + key;
    const keys = [`${k}:n`, `${k}:e`];
    const args: (string | number)[] = [
      entry,
      options.keep,
      positiveTtl(options.ttlMs),
      this.prefix + channel,
      Math.max(0, Math.floor(options.floor ?? 0)),
    ];
    if (options.once) {
      keys.push(this.prefix + options.once.key);
      args.push(positiveTtl(options.once.ttlMs));
    }
    return Number(await runScript(this.publisher, APPEND, keys, args));
  }

  async readLog(key: string, after: number): Promise<NumberedLogRead> {
    const k = this.prefix + key;
    const [last, oldest, members] = (await runScript(
      this.publisher,
      READ,
      [`${k}:n`, `${k}:e`],
      [Math.max(0, Math.floor(after))],
    )) as [string, string, string[]];
    return readNumbered(
      members.map(parseMember),
      Number(last),
      after,
      oldest === '' ? undefined : Number(oldest),
    );
  }

  async removeFromLog(key: string, seq: number): Promise<boolean> {
    return Number(await runScript(this.publisher, REMOVE, [`${this.prefix}${key}:e`], [seq])) === 1;
  }

  async removeFromLogs(keyPrefix: string, needle: string): Promise<number> {
    let removed = 0;
    const pattern = `${literalPattern(this.prefix + keyPrefix)}*:e`;
    for await (const keys of this.publisher.scanStream({ match: pattern, count: 500 }) as AsyncIterable<
      string[]
    >) {
      for (const key of keys)
        removed += Number(await runScript(this.publisher, REMOVE_MATCHING, [key], [needle]));
    }
    return removed;
  }

  async deleteLog(key: string): Promise<void> {
    const k = this.prefix + key;
    await this.publisher.del(`${k}:n`, `${k}:e`);
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

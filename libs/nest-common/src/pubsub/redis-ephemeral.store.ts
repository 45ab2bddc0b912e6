import { createHash } from 'node:crypto';
import type Redis from 'ioredis';
import type { EphemeralStore } from './pubsub.port';
import { openRedis, quietly, type RedisConnection } from './redis-connection';
import { positiveTtl } from './ttl';

export interface RedisEphemeralStoreOptions {
  /** Prepended to every key, so deployments (and test runs) sharing a Redis stay apart. */
  prefix?: string;
}

interface Script {
  lua: string;
  sha: string;
}

function script(lua: string): Script {
  return { lua, sha: createHash('sha1').update(lua).digest('hex') };
}

// Expiry is judged by the Redis clock, not the replicas', so skewed replicas agree on who is alive.
const NOW_MS = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

/** INCR and, only when this created the key, PEXPIRE — atomically, so no counter is left without a TTL. */
const INCR_WITH_TTL = script(`
local existed = redis.call('EXISTS', KEYS[1])
local value = redis.call('INCR', KEYS[1])
if existed == 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return value
`);

/**
 * Liveness set: a sorted set scored by each member's expiry time. Expired members are pruned first, so a member
 * that lapsed counts as absent (returns 1). The key itself expires with its longest-lived member.
 */
const ADD_MEMBER = script(`${NOW_MS}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', string.format('%.0f', now))
local added = redis.call('ZADD', KEYS[1], string.format('%.0f', now + tonumber(ARGV[2])), ARGV[1])
local top = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('PEXPIRE', KEYS[1], string.format('%.0f', math.max(1, tonumber(top[2]) - now)))
return added
`);

const LIVE_MEMBERS = script(`${NOW_MS}
return redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. string.format('%.0f', now), '+inf')
`);

/** Shared ephemeral state on Redis (cluster mode): counters, flags and liveness sets, all under one prefix. */
export class RedisEphemeralStore implements EphemeralStore {
  private readonly client: Redis;
  private readonly owned: boolean;
  private readonly prefix: string;
  private closed = false;

  constructor(connection: RedisConnection, options: RedisEphemeralStoreOptions = {}) {
    const { client, owned } = openRedis(connection);
    this.client = client;
    this.owned = owned;
    this.prefix = options.prefix ?? '';
  }

  async get(key: string): Promise<string | null> {
    return this.client.get(this.key(key));
  }

  async mget(keys: string[]): Promise<(string | null)[]> {
    if (keys.length === 0) return [];
    return this.client.mget(keys.map((k) => this.key(k)));
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    if (ttlMs === undefined) await this.client.set(this.key(key), value);
    else await this.client.set(this.key(key), value, 'PX', positiveTtl(ttlMs));
  }

  async setIfAbsent(key: string, value: string, ttlMs?: number): Promise<boolean> {
    const result =
      ttlMs === undefined
        ? await this.client.set(this.key(key), value, 'NX')
        : await this.client.set(this.key(key), value, 'PX', positiveTtl(ttlMs), 'NX');
    return result === 'OK';
  }

  async mset(entries: Record<string, string>): Promise<void> {
    const flat = Object.entries(entries).flatMap(([k, v]) => [this.key(k), v]);
    if (flat.length > 0) await this.client.mset(flat);
  }

  async del(key: string): Promise<void> {
    await this.client.del(this.key(key));
  }

  async incr(key: string, ttlMs: number): Promise<number> {
    return Number(await this.run(INCR_WITH_TTL, [this.key(key)], [positiveTtl(ttlMs)]));
  }

  async pttl(key: string): Promise<number> {
    return this.client.pttl(this.key(key));
  }

  async addMember(setKey: string, member: string, ttlMs: number): Promise<boolean> {
    return Number(await this.run(ADD_MEMBER, [this.key(setKey)], [member, positiveTtl(ttlMs)])) === 1;
  }

  async removeMember(setKey: string, member: string): Promise<void> {
    await this.client.zrem(this.key(setKey), member);
  }

  async members(setKey: string): Promise<string[]> {
    return (await this.run(LIVE_MEMBERS, [this.key(setKey)], [])) as string[];
  }

  isReady(): boolean {
    return !this.closed && this.client.status === 'ready';
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.owned) await quietly(this.client.quit());
  }

  private key(key: string): string {
    return this.prefix + key;
  }

  /** EVALSHA, loading the script on first use (or after a Redis restart flushed the script cache). */
  private async run(s: Script, keys: string[], args: (string | number)[]): Promise<unknown> {
    try {
      return await this.client.evalsha(s.sha, keys.length, ...keys, ...args);
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return this.client.eval(s.lua, keys.length, ...keys, ...args);
    }
  }
}

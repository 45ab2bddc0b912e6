import type Redis from 'ioredis';
import type { EphemeralStore, SeatClaim, SeatHolder } from './pubsub.port';
import { NOW_MS, redisScript as script, runScript, type RedisScript } from './redis-script';
import { openRedis, quietly, type RedisConnection } from './redis-connection';
import { positiveTtl } from './ttl';

export interface RedisEphemeralStoreOptions {
  /** Prepended to every key, so deployments (and test runs) sharing a Redis stay apart. */
  prefix?: string;
}

/** INCR and, only when this created the key, PEXPIRE — atomically, so no counter is left without a TTL. */
const INCR_WITH_TTL = script(`
local existed = redis.call('EXISTS', KEYS[1])
local value = redis.call('INCR', KEYS[1])
if existed == 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return value
`);

/**
 * A token bucket as GCRA: the key holds the theoretical arrival time (TAT, ms on Redis's clock) of the next
 * token; a take moves it on by one interval unless that puts it more than `burst` intervals ahead of now.
 */
const TAKE_TOKEN = script(`${NOW_MS}
local burst = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
if tat < now then tat = now end
local nextTat = tat + interval
local wait = nextTat - now - burst * interval
if wait > 0 then return wait end
redis.call('SET', KEYS[1], string.format('%.0f', nextTat), 'PX', string.format('%.0f', math.max(1, nextTat - now)))
return 0
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

/**
 * Seats: a hash per group, seat → JSON holder. A holder counts while its process's heartbeat key exists, so a
 * killed replica's seats come free when its heartbeat expires. Heartbeat keys are `<prefix>seat-process:<id>`.
 */
const CLAIM_SEAT = script(`
local current = redis.call('HGET', KEYS[1], ARGV[1])
local resumed = 0
if current then
  local holder = cjson.decode(current)
  if holder.token ~= ARGV[3] and redis.call('EXISTS', ARGV[4] .. holder.process) == 1 then return current end
  if holder.token == ARGV[3] and holder.data == ARGV[5] then resumed = 1 end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
-- A group nobody claims in for a day is dropped, so seats of processes that all died do not stay forever.
redis.call('PEXPIRE', KEYS[1], 86400000)
return resumed
`);

const RELEASE_SEAT = script(`
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current or cjson.decode(current).token ~= ARGV[2] then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
return 1
`);

/**
 * Returns seat, holder, seat, holder… of the dead processes' seats, which it removes. Each replica runs it for each
 * of its rooms every heartbeat, and Redis serves nothing else meanwhile: the holder's process is read off the front
 * of its JSON (`claimSeat` writes it first; anything else is decoded) and each process's liveness is asked once —
 * 0.66–0.68 ms of Redis for a room of 950 instead of 1.80–1.82 (a decode and an EXISTS per seat; `npm run
 * bench:reap -w bench`).
 */
const REAP_SEATS = script(`
local all = redis.call('HGETALL', KEYS[1])
local reaped = {}
local alive = {}
for i = 1, #all, 2 do
  local process = string.match(all[i + 1], '^{"process":"([^"\\\\]*)"')
  if not process then process = cjson.decode(all[i + 1]).process end
  local live = alive[process]
  if live == nil then
    live = redis.call('EXISTS', ARGV[1] .. process) == 1
    alive[process] = live
  end
  if not live then
    redis.call('HDEL', KEYS[1], all[i])
    reaped[#reaped + 1] = all[i]
    reaped[#reaped + 1] = all[i + 1]
  end
end
return reaped
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

  async takeToken(key: string, burst: number, intervalMs: number): Promise<number> {
    return Number(await this.run(TAKE_TOKEN, [this.key(key)], [burst, positiveTtl(intervalMs)]));
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

  async claimSeat(
    group: string,
    seat: string,
    holder: SeatHolder,
    takeOverFrom?: string,
  ): Promise<SeatClaim> {
    // The process first: REAP_SEATS reads it off the front.
    const stored = JSON.stringify({ process: holder.process, token: holder.token, data: holder.data });
    const kept = await this.run(
      CLAIM_SEAT,
      [this.seatKey(group)],
      [seat, stored, takeOverFrom ?? '', this.processKey(''), holder.data],
    );
    if (typeof kept === 'string') return { taken: JSON.parse(kept) as SeatHolder };
    return { taken: null, resumed: Number(kept) === 1 };
  }

  async releaseSeat(group: string, seat: string, token: string): Promise<boolean> {
    return Number(await this.run(RELEASE_SEAT, [this.seatKey(group)], [seat, token])) === 1;
  }

  async seats(group: string): Promise<{ seat: string; holder: SeatHolder }[]> {
    const all = Object.entries(await this.client.hgetall(this.seatKey(group))).map(([seat, json]) => ({
      seat,
      holder: JSON.parse(json) as SeatHolder,
    }));
    const processes = [...new Set(all.map((s) => s.holder.process))];
    if (processes.length === 0) return [];
    const alive = await this.client.mget(processes.map((p) => this.processKey(p)));
    const live = new Set(processes.filter((_, i) => alive[i] !== null));
    return all.filter((s) => live.has(s.holder.process));
  }

  async reapSeats(group: string): Promise<{ seat: string; holder: SeatHolder }[]> {
    const flat = (await this.run(REAP_SEATS, [this.seatKey(group)], [this.processKey('')])) as string[];
    const reaped: { seat: string; holder: SeatHolder }[] = [];
    for (let i = 0; i < flat.length; i += 2)
      reaped.push({ seat: flat[i], holder: JSON.parse(flat[i + 1]) as SeatHolder });
    return reaped;
  }

  async heartbeat(process: string, ttlMs: number): Promise<void> {
    await this.client.set(this.processKey(process), '1', 'PX', positiveTtl(ttlMs));
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

  private seatKey(group: string): string {
    return `${this.prefix}seats:${group}`;
  }

  private processKey(process: string): string {
    return `${this.prefix}seat-process:${process}`;
  }

  private run(s: RedisScript, keys: string[], args: (string | number)[]): Promise<unknown> {
    return runScript(this.client, s, keys, args);
  }
}

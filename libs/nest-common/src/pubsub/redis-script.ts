import { createHash } from 'node:crypto';
import type Redis from 'ioredis';

/** A Lua script and its SHA-1, for EVALSHA. */
export interface RedisScript {
  lua: string;
  sha: string;
}

export function redisScript(lua: string): RedisScript {
  return { lua, sha: createHash('sha1').update(lua).digest('hex') };
}

/** EVALSHA, loading the script on first use (or after a Redis restart flushed the script cache). */
export async function runScript(
  client: Redis,
  s: RedisScript,
  keys: string[],
  args: (string | number)[],
): Promise<unknown> {
  try {
    return await client.evalsha(s.sha, keys.length, ...keys, ...args);
  } catch (err) {
    if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
    return client.eval(s.lua, keys.length, ...keys, ...args);
  }
}

// Expiry is judged by the Redis clock, not the replicas', so skewed replicas agree on who is alive.
export const NOW_MS = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

/** A key prefix as a SCAN pattern that matches it literally. */
export function literalPattern(prefix: string): string {
  return prefix.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}

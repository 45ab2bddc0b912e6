/**
 * What a join's read of a room's kept messages costs the replica and Redis (issue 11: every join reads the room's
 * log — a first join wanting none of it, a rejoin the few messages it missed). A log of 200 kept messages (the
 * default CHAT_HISTORY_SIZE) of the size the chat keeps (~330 bytes each), read through the pub/sub port's
 * `readLog`, alternated with the script before 2026-11-28 (the whole kept log, filtered in the replica) on the same
 * log. Wall time is the replica's side (the round trip and ioredis parsing the reply); Redis's CPU from `INFO cpu`.
 *
 *   npm run bench:read-log -w bench -- [--kept 200] [--calls 2000] [--rounds 3] [--redis redis://127.0.0.1:6379]
 *
 * Pin it away from Redis on a 2-core machine (`taskset -c 0`); Redis should be otherwise idle.
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import Redis from 'ioredis';
import { RedisPubSub } from '@district/nest-common';
import { timePerCall } from './redis-timing';

const { values: a } = parseArgs({
  options: {
    kept: { type: 'string', default: '200' },
    calls: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '3' },
    redis: { type: 'string', default: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' },
  },
});

const BEFORE = `
local last = redis.call('GET', KEYS[1]) or '0'
return { last, redis.call('ZRANGE', KEYS[2], 0, -1) }`;

async function main(): Promise<void> {
  const client = new Redis(a.redis);
  const prefix = `bench-read-log-${randomUUID()}:`;
  const pubsub = new RedisPubSub(client, { prefix });
  const kept = Number(a.kept);
  const userId = randomUUID();
  for (let i = 0; i < kept; i++) {
    const json = JSON.stringify({
      type: 'message',
      id: randomUUID(),
      name: `Student ${i % 30}`,
      role: 'student',
      text: `${'¿Qué tal la clase de hoy? '.repeat(8)}${i}`,
      timestamp: new Date().toISOString(),
      chatroom: randomUUID(),
      ref: randomUUID().replace(/-/g, ''),
    });
    await pubsub.appendAndPublish('bench-room', 'log', `${userId} ${json}`, { keep: kept, ttlMs: 600_000 });
  }
  const calls = Number(a.calls);
  const measure = async (run: () => Promise<unknown>) => {
    const { wallMs, redisCpuMs } = await timePerCall(client, calls, run);
    return { wallUs: Math.round(wallMs * 1000), redisCpuUs: Math.round(redisCpuMs * 1000) };
  };
  const k = `${prefix}log`;
  const before = async (after: number) => {
    const [last, members] = (await client.eval(BEFORE, 2, `${k}:n`, `${k}:e`)) as [string, string[]];
    return { last: Number(last), entries: members.filter((m) => Number(m.slice(0, m.indexOf(' '))) > after) };
  };
  const reads = [
    { what: 'first join (nothing wanted)', after: Number.MAX_SAFE_INTEGER },
    { what: 'rejoin, 3 missed', after: kept - 3 },
  ];
  const rows: Array<{ round: number; what: string; script: string; wallUs: number; redisCpuUs: number }> = [];
  for (let round = 1; round <= Number(a.rounds); round++) {
    for (const r of reads) {
      rows.push({ round, what: r.what, script: 'before', ...(await measure(() => before(r.after))) });
      rows.push({
        round,
        what: r.what,
        script: 'now (readLog)',
        ...(await measure(() => pubsub.readLog('log', r.after))),
      });
    }
  }
  // Both give the same answer.
  for (const r of reads) {
    const now = await pubsub.readLog('log', r.after);
    const was = await before(r.after);
    if (now.entries.length !== was.entries.length || now.last !== was.last)
      throw new Error(`different answers for ${r.what}`);
  }
  await pubsub.deleteLog('log');
  await pubsub.close();
  await client.quit();
  console.log(`A log of ${kept} kept messages, ${calls} reads per row (µs per read):\n`);
  console.log('| round | read | script | wall (replica side) | Redis CPU |\n|---|---|---|---|---|');
  for (const r of rows)
    console.log(`| ${r.round} | ${r.what} | ${r.script} | ${r.wallUs} | ${r.redisCpuUs} |`);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

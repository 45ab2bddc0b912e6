/**
 * What reaping one room's seats costs Redis (issue 11: a chat replica runs `reapSeats` for every room it has open
 * at every heartbeat, and Redis serves nothing else while the script runs). A room of 950 seats held by two live
 * replicas — nothing to reap, the usual case — through the store's `reapSeats`, alternated with the script before
 * 2026-11-27 (a `cjson.decode` and an `EXISTS` per seat) run on the same hash. Redis's own CPU from `INFO cpu`.
 *
 *   npm run bench:reap -w bench -- [--seats 950] [--calls 300] [--rounds 3] [--redis redis://127.0.0.1:6379]
 *
 * Pin it away from Redis on a 2-core machine (`taskset -c 0`); Redis should be otherwise idle.
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import Redis from 'ioredis';
import { RedisEphemeralStore } from '@district/nest-common';
import { timePerCall } from './redis-timing';

const { values: a } = parseArgs({
  options: {
    seats: { type: 'string', default: '950' },
    calls: { type: 'string', default: '300' },
    rounds: { type: 'string', default: '3' },
    redis: { type: 'string', default: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' },
  },
});

const BEFORE = `
local all = redis.call('HGETALL', KEYS[1])
local reaped = {}
for i = 1, #all, 2 do
  local holder = cjson.decode(all[i + 1])
  if redis.call('EXISTS', ARGV[1] .. holder.process) == 0 then
    redis.call('HDEL', KEYS[1], all[i])
    reaped[#reaped + 1] = all[i]
    reaped[#reaped + 1] = all[i + 1]
  end
end
return reaped`;

async function main(): Promise<void> {
  const client = new Redis(a.redis);
  const prefix = `bench-reap-${randomUUID()}:`;
  const store = new RedisEphemeralStore(client, { prefix });
  const processes = [randomUUID(), randomUUID()];
  for (const p of processes) await store.heartbeat(p, 600_000);
  const seats = Number(a.seats);
  for (let i = 0; i < seats; i++) {
    const data = JSON.stringify({ name: `load-${i}`, role: 'teacher', userId: randomUUID() });
    await store.claimSeat('room', `load-${i}`, { process: processes[i % 2], token: randomUUID(), data });
  }
  const calls = Number(a.calls);
  const measure = async (run: () => Promise<unknown>) => {
    const { wallMs, redisCpuMs: cpuMs } = await timePerCall(client, calls, run);
    return { wallMs: Math.round(wallMs * 1000) / 1000, redisCpuMs: Math.round(cpuMs * 1000) / 1000 };
  };
  const seatKey = `${prefix}seats:room`;
  const processKey = `${prefix}seat-process:`;
  const rows: Array<{ round: number; script: string; wallMs: number; redisCpuMs: number }> = [];
  for (let round = 1; round <= Number(a.rounds); round++) {
    rows.push({
      round,
      script: 'before',
      ...(await measure(() => client.eval(BEFORE, 1, seatKey, processKey))),
    });
    rows.push({ round, script: 'now (reapSeats)', ...(await measure(() => store.reapSeats('room'))) });
  }
  if ((await store.seats('room')).length !== seats) throw new Error('a live seat was reaped');
  await client.del(seatKey, ...processes.map((p) => processKey + p));
  await client.quit();
  console.log(`A room of ${seats} seats, 2 live processes, ${calls} reaps per row (ms per reap):\n`);
  console.log('| round | script | wall | Redis CPU |\n|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.round} | ${r.script} | ${r.wallMs} | ${r.redisCpuMs} |`);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

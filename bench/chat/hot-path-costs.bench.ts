/**
 * Two costs a chat replica pays for every socket it takes back after a failover, measured alone (ADR 0027, 0028):
 *
 * - Redis commands: CPU per command for a command alone in its turn (the steady fan-out's one append per message)
 *   and in bursts of 100 per turn (a failover's rejoins), and the heap held after 9,500 joins' worth of commands
 *   (28,500), for three ways of writing them: ioredis as it comes (`plain`), the platform's `coalesceWrites`
 *   (`coalesced`), and ioredis's `enableAutoPipelining` (`autopipelining`, rejected).
 * - Session tokens: CPU per ES256 token verified by jose's `jwtVerify` (WebCrypto) and by the platform's
 *   `verifyEs256Jwt` (`node:crypto`).
 *
 * Each variant runs in a process of its own (so the heap figures are its own), the variants alternated, `--rounds`
 * times. CPU is the process's user + system time. Pin it away from Redis on a 2-core machine (`--cpu 1`, the
 * default, runs every child under `taskset -c 1`); Redis should be otherwise idle.
 *
 *   npm run bench:hot-path -w bench -- [--rounds 3] [--cpu 1] [--redis redis://127.0.0.1:6379]
 */
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { parseArgs } from 'node:util';
import Redis from 'ioredis';
import { importSPKI, jwtVerify, SignJWT } from 'jose';
import { coalesceWrites, es256PublicKey, verifyEs256Jwt } from '@district/nest-common';
import { pinnedCommand } from '../lib/cpu-pinning';

const { values: a } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    cpu: { type: 'string', default: '1' },
    redis: { type: 'string', default: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' },
    child: { type: 'string' },
  },
});

const REDIS_VARIANTS = ['plain', 'coalesced', 'autopipelining'] as const;
const TOKEN_VARIANTS = ['jose', 'node-crypto'] as const;
const cpuMicros = (since: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return u.user + u.system;
};
const immediate = () => new Promise<void>((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function redisChild(variant: string): Promise<Record<string, number>> {
  const client = new Redis(a.redis, { enableAutoPipelining: variant === 'autopipelining' });
  if (variant === 'coalesced') coalesceWrites(client);
  await client.ping();
  const prefix = `bench-hot-path-${process.pid}:`;
  const sha = (await client.script('LOAD', "return redis.call('INCR', KEYS[1])")) as string;
  let t = process.cpuUsage();
  for (let i = 0; i < 20_000; i++) {
    await client.evalsha(sha, 1, `${prefix}n`);
    await immediate();
  }
  const lone = cpuMicros(t) / 20_000;
  t = process.cpuUsage();
  for (let i = 0; i < 200; i++)
    await Promise.all(Array.from({ length: 100 }, () => client.evalsha(sha, 1, `${prefix}n`)));
  const burst = cpuMicros(t) / 20_000;
  const before = process.memoryUsage();
  for (let j = 0; j < 9_500; j += 50) {
    const joins = [];
    for (let k = j; k < j + 50; k++)
      joins.push(
        client.mget(`${prefix}a${k}`, `${prefix}b${k}`),
        client.set(`${prefix}s${k}`, 'x'.repeat(100)),
        client.get(`${prefix}c${k}`),
      );
    await Promise.all(joins);
    await sleep(5);
  }
  await sleep(2_000);
  const after = process.memoryUsage();
  await client.del(`${prefix}n`, ...Array.from({ length: 9_500 }, (_, k) => `${prefix}s${k}`));
  await client.quit();
  return {
    loneUs: lone,
    burstUs: burst,
    heapHeldMb: (after.heapUsed - before.heapUsed) / 2 ** 20,
    rssMb: (after.rss - before.rss) / 2 ** 20,
  };
}

async function tokenChild(variant: string): Promise<Record<string, number>> {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const issuer = 'district-identity';
  const tokens: string[] = [];
  for (let i = 0; i < 3_000; i++)
    tokens.push(
      await new SignJWT({ n: i })
        .setProtectedHeader({ alg: 'ES256' })
        .setIssuer(issuer)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(privateKey),
    );
  const joseKey = await importSPKI(pem, 'ES256');
  const key = es256PublicKey(pem);
  const now = Math.floor(Date.now() / 1000);
  const t = process.cpuUsage();
  for (const token of tokens) {
    const ok =
      variant === 'jose'
        ? (await jwtVerify(token, joseKey, { issuer, algorithms: ['ES256'] })).payload
        : verifyEs256Jwt(token, key, issuer, now);
    if (!ok) throw new Error('a good token was refused');
  }
  return { verifyUs: cpuMicros(t) / tokens.length };
}

async function main(): Promise<void> {
  if (a.child) {
    const [kind, variant] = a.child.split(':');
    const result = kind === 'redis' ? await redisChild(variant) : await tokenChild(variant);
    process.stdout.write(JSON.stringify(result));
    return;
  }
  const run = (child: string): Record<string, number> => {
    const { command, args } = pinnedCommand(
      process.execPath,
      [...process.execArgv, __filename, '--child', child, '--redis', a.redis],
      a.cpu,
    );
    const r = spawnSync(command, args, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${child} failed: ${r.stderr}`);
    return JSON.parse(r.stdout) as Record<string, number>;
  };
  const f = (n: number) => n.toFixed(1);
  console.log(
    '| round | Redis commands | alone in a turn: µs CPU each | 100 a turn: µs CPU each | after 28,500: heap held / RSS (MB) |',
  );
  console.log('|---|---|---|---|---|');
  for (let round = 1; round <= Number(a.rounds); round++)
    for (const v of REDIS_VARIANTS) {
      const r = run(`redis:${v}`);
      console.log(
        `| ${round} | ${v} | ${f(r.loneUs)} | ${f(r.burstUs)} | ${f(r.heapHeldMb)} / ${f(r.rssMb)} |`,
      );
    }
  console.log('\n| round | token verify | µs CPU per token (3,000) |');
  console.log('|---|---|---|');
  for (let round = 1; round <= Number(a.rounds); round++)
    for (const v of TOKEN_VARIANTS) console.log(`| ${round} | ${v} | ${f(run(`token:${v}`).verifyUs)} |`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

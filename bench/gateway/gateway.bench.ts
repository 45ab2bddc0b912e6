import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { COMMON_OPTIONS, benchCommand, commonOptions, type CommonOptions } from '../lib/bench-options';
import { fetchAnswer, progressLog, runContest, type ProbeRequest } from '../lib/bench-run';
import { signInDemoAdmin } from '../lib/launcher-stack';
import { CONTENDERS } from '../lib/results';
import { renderGatewayReport } from './gateway-report';
import type { GatewayRun, ProbeInfo } from './gateway-results';

const USAGE = `Gateway benchmark: gateway -> identity vs identity direct vs a bare Node http server.

  npm run bench:gateway -w bench -- [options]

  --rounds N            rounds of each phase, contenders alternated (default 3)
  --duration S          seconds per maximum-throughput round (default 10)
  --warmup S            seconds of warm-up per contender and probe (default 5)
  --connections N       connections of the maximum-throughput load (default 50)
  --rate LIST           fixed rates in req/s, the target's first (default 500,100: the
                        second shows the gateway's cost below saturation on a slow machine)
  --rate-duration S     seconds per fixed-rate round (default 10)
  --rate-connections N  most connections the fixed-rate client opens (default 50)
  --probes LIST         comma-separated: me,users,healthz (default all three)
  --tool wrk|undici     closed-loop load generator (default wrk when installed)
  --log-level LEVEL     the launcher's LOG_LEVEL (default info, as npm start)
  --out DIR             where gateway.json and gateway.md go (default bench/reports)
  --keep                keep the launcher's data directory and log
  --no-pin              do not pin the servers to CPU 1 and the load generator to CPU 0 (taskset)
  --node PATH           the Node binary the servers run on (default this script's own)
  --report-only         render gateway.md again from the existing gateway.json
`;

const PROBES: Record<string, Omit<ProbeInfo, 'bodyBytes'>> = {
  me: {
    id: 'me',
    path: '/api/auth/me',
    title: 'who am I',
    headline: true,
    contenders: [...CONTENDERS],
    withCookie: true,
    fixedRate: true,
    description:
      'the session check. Per call: the platform guard verifies the ES256 token (a token verified once is kept) and ' +
      'checks the session state once; /me then reads the user row at the token version the state confirmed (kept in ' +
      'memory until the user changes, ADR 0016) and re-signs only a token over ten minutes old (the sliding session).',
  },
  users: {
    id: 'users',
    path: '/api/users',
    title: 'admin user list',
    headline: false,
    contenders: [...CONTENDERS],
    withCookie: true,
    fixedRate: true,
    description:
      'a guarded read without re-signing: the guard verifies the token, checks the session state and the admin ' +
      'flag, then one PostgreSQL query lists the users (the demo seed).',
  },
  healthz: {
    id: 'healthz',
    path: '/healthz',
    title: 'liveness',
    headline: false,
    contenders: ['bare', 'direct'],
    withCookie: false,
    // Its budget is a throughput ratio; its latency at a fixed rate would only lengthen the run.
    fixedRate: false,
    description:
      "identity's liveness answer without a cookie: the Nest/Fastify floor (routing, the guard finding no token, " +
      'hooks; not logged). Not through the gateway, which answers /healthz itself.',
  },
};

const progress = progressLog('gateway');

function parseOptions(argv: string[]): CommonOptions {
  const { values } = parseArgs({ args: argv, options: COMMON_OPTIONS });
  return commonOptions(values, { usage: USAGE, probes: Object.keys(PROBES), rates: '500,100' });
}

/** A probe's request: with the session cookie where the probe carries it. */
function request(probe: string, cookie: string): ProbeRequest {
  const { path: probePath, withCookie } = PROBES[probe];
  return { path: probePath, headers: withCookie ? { cookie } : {} };
}

function describeTopology(logLevel: string): string {
  return (
    '`launcher/src/main.ts --target=all` started as `npm start` starts it (standalone): the gateway and identity ' +
    'in one Node process (one event loop; identity on its own loopback port), an embedded PostgreSQL in its own ' +
    `processes, in-process bus and session store. LOG_LEVEL=${logLevel}: each request through the gateway writes ` +
    'one JSON log line from identity and one from the gateway (to a file here).'
  );
}

async function run(options: CommonOptions): Promise<GatewayRun> {
  const measured = await runContest(options, {
    service: 'identity',
    prefix: 'district-bench-gateway-',
    probes: options.probes.map((id) => PROBES[id]),
    progress,
    request,
    prepare: async (launcher, identityUrl) => {
      const cookie = await signInDemoAdmin(launcher.gatewayUrl);
      const bodies: Record<string, string> = {};
      const answers: Record<string, string> = {};
      for (const id of options.probes) {
        // The body the real endpoint returned, through the gateway where the probe goes through it.
        const source = PROBES[id].contenders.includes('gateway') ? launcher.gatewayUrl : identityUrl;
        bodies[id] = (await fetchAnswer(source, request(id, cookie))).body;
        answers[PROBES[id].path] = bodies[id];
      }
      return { state: cookie, answers, bodies };
    },
  });
  return {
    benchmark: 'gateway',
    formatVersion: 1,
    command: benchCommand('bench:gateway', process.argv.slice(2)),
    ...measured.context,
    settings: measured.settings,
    topology: describeTopology(options.logLevel),
    probes: options.probes.map((id) => ({
      ...PROBES[id],
      bodyBytes: Buffer.byteLength(measured.bodies[id]),
    })),
    ...measured.rounds,
  };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const jsonFile = path.join(options.out, 'gateway.json');
  const mdFile = path.join(options.out, 'gateway.md');
  const result = options.reportOnly
    ? (JSON.parse(await readFile(jsonFile, 'utf8')) as GatewayRun)
    : await run(options);
  await mkdir(options.out, { recursive: true });
  if (!options.reportOnly) await writeFile(jsonFile, `${JSON.stringify(result, null, 2)}\n`);
  await writeFile(mdFile, renderGatewayReport(result));
  progress(
    `wrote ${path.relative(process.cwd(), mdFile)}${options.reportOnly ? '' : ` and ${path.relative(process.cwd(), jsonFile)}`}`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

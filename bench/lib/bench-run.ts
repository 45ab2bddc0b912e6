import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BareAnswer } from './bare-server';
import type { CommonOptions } from './bench-options';
import { firstJsonLine, runServersOn, serversNode, spawnTypeScript, stopChild } from './child-processes';
import { pinBenchScript, planPinning } from './cpu-pinning';
import { startLauncher, type RunningLauncher } from './launcher-stack';
import { describeMachine, loadAverage } from './machine-info';
import type { Contender, MeasuredRun, RunSettings } from './results';
import { contenderMeter, describeTools, loadGenerator, measureRounds, type PlannedProbe } from './rounds';

/** What a probe sends, whoever answers it. */
export interface ProbeRequest {
  path: string;
  headers: Record<string, string>;
}

/** A benchmark's progress line on stderr, e.g. `[bench:gateway] …`. */
export function progressLog(benchmark: string): (message: string) => void {
  return (message) => process.stderr.write(`[bench:${benchmark}] ${message}\n`);
}

/** GETs a probe from one contender; anything but a 200 is an error. */
export async function fetchAnswer(
  origin: string,
  request: ProbeRequest,
): Promise<{ body: string; headers: Headers }> {
  const res = await fetch(new URL(request.path, origin), { headers: request.headers });
  const body = await res.text();
  if (res.status !== 200)
    throw new Error(`GET ${origin}${request.path} answered ${res.status}: ${body.slice(0, 500)}`);
  return { body, headers: res.headers };
}

/**
 * Checks that every contender answers every probe with the expected JSON before anything is timed. `origins`
 * gives each contender's origin, or (when it depends on the probe, e.g. which service is direct) a function.
 */
export async function verifyAnswers<C extends string = Contender>(
  origins: Record<C, string> | ((probe: string, contender: C) => string),
  probes: readonly PlannedProbe<C>[],
  request: (probe: string) => ProbeRequest,
  expected: Record<string, string>,
): Promise<void> {
  const origin =
    typeof origins === 'function' ? origins : (_probe: string, contender: C) => origins[contender];
  for (const probe of probes) {
    const sent = request(probe.id);
    for (const contender of probe.contenders) {
      const { body } = await fetchAnswer(origin(probe.id, contender), sent);
      if (body !== expected[probe.id]) {
        throw new Error(
          `${contender} answered ${sent.path} with another body (${body.length} bytes, expected ${expected[probe.id].length})`,
        );
      }
    }
  }
}

/** A server of the benchmark's own (the bare server, the minimal proxy) running in its own process. */
export interface ServerProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export type BareProcess = ServerProcess;

/**
 * Starts one of lib's server scripts in its own process (on `cpus` when given) and waits for the line it prints
 * with its URL; stop() ends it, then runs `cleanUp`.
 */
async function startServerScript(
  file: string,
  args: string[],
  cpus: string | undefined,
  cleanUp = async () => {},
): Promise<ServerProcess> {
  const child = spawnTypeScript(path.join(__dirname, file), args, {
    env: { PATH: process.env.PATH },
    stdio: ['ignore', 'pipe', 'inherit'],
    cpus,
  });
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await stopChild(child, 5000);
      await cleanUp();
    })());
  try {
    const { url } = await firstJsonLine<{ url: string }>(child, 30_000);
    return { url, pid: child.pid as number, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Starts lib/bare-server.ts in its own process, answering `answers` (by URL); stop() also removes its file. */
export async function startBareServer(
  answers: Record<string, BareAnswer>,
  cpus?: string,
): Promise<BareProcess> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'district-bench-bare-'));
  const answersFile = path.join(scratch, 'answers.json');
  await writeFile(answersFile, JSON.stringify(answers));
  return startServerScript('bare-server.ts', [answersFile], cpus, () =>
    rm(scratch, { recursive: true, force: true }),
  );
}

/** Starts lib/minimal-proxy.ts in its own process, in front of `upstream`. */
export function startMinimalProxy(upstream: string, cpus?: string): Promise<ServerProcess> {
  return startServerScript('minimal-proxy.ts', [upstream], cpus);
}

/** What a benchmark brings to `runContest`: its service, its probes, and how to get the bodies to compare. */
export interface ContestSpec<S> {
  /** The service measured direct and behind the gateway (a key of the gateway's /readyz). */
  service: string;
  /** Prefix of the launcher's temporary data directory. */
  prefix: string;
  probes: readonly PlannedProbe[];
  progress(message: string): void;
  /** Once the launcher is ready: whatever the benchmark sets up (a session, a seed) and the real answers. */
  prepare(launcher: RunningLauncher, serviceUrl: string): Promise<Prepared<S>>;
  /** The request of a probe, given what `prepare` set up. */
  request(probe: string, state: S): ProbeRequest;
}

export interface Prepared<S> {
  state: S;
  /** What the bare server answers, by URL. */
  answers: Record<string, BareAnswer>;
  /** The body every contender must answer, by probe. */
  bodies: Record<string, string>;
}

/** The measured part of a run, in the pieces its JSON puts its own fields between, and what `prepare` set up. */
export interface Contest<S> extends Prepared<S> {
  /** When, where, and how loaded the machine was. */
  context: Pick<MeasuredRun, 'startedAt' | 'finishedAt' | 'machine' | 'loadAverage' | 'pinning'>;
  settings: RunSettings;
  rounds: Pick<MeasuredRun, 'throughput' | 'fixedRate'>;
}

/**
 * One benchmark run from start to end: starts the launcher, lets the benchmark prepare, starts the bare
 * server with the real answers, checks that all three contenders answer the same, runs the rounds, and stops
 * everything again (on Ctrl-C too, so no launcher, embedded PostgreSQL or data directory is left behind).
 */
export async function runContest<S>(options: CommonOptions, spec: ContestSpec<S>): Promise<Contest<S>> {
  const { progress } = spec;
  const { machine, pinning, loadStart, startedAt, tools } = await openRun(options, progress);

  const launcher = await startLauncher({
    logLevel: options.logLevel,
    keep: options.keep,
    services: [spec.service],
    prefix: spec.prefix,
    cpus: pinning.serverCpus,
  });
  let bare: BareProcess | undefined;
  const cleanUp = async () => {
    await bare?.stop();
    await launcher.stop();
    if (options.keep) progress(`kept the launcher's data and log: ${launcher.dataDir}`);
  };
  return stoppingOnSignals(progress, cleanUp, async () => {
    const serviceUrl = launcher.serviceUrls[spec.service];
    progress(
      `launcher ready: gateway ${launcher.gatewayUrl}, ${spec.service} ${serviceUrl} (log ${launcher.logFile})`,
    );
    const prepared = await spec.prepare(launcher, serviceUrl);
    const request = (probe: string) => spec.request(probe, prepared.state);
    bare = await startBareServer(prepared.answers, pinning.serverCpus);
    const origins: Record<Contender, string> = {
      bare: bare.url,
      direct: serviceUrl,
      gateway: launcher.gatewayUrl,
    };
    await verifyAnswers(origins, spec.probes, request, prepared.bodies);
    progress('every contender answers the same JSON');

    const rounds = await measureRounds({
      plan: options,
      probes: spec.probes,
      request: (probe, contender) => ({ origin: origins[contender], ...request(probe) }),
      load: loadGenerator(options.tool, options.connections, pinning.loadCpus),
      meter: contenderMeter(launcher.pid, bare.pid),
      progress,
    });
    return {
      ...prepared,
      context: {
        startedAt,
        finishedAt: new Date().toISOString(),
        machine,
        loadAverage: { start: loadStart, end: loadAverage() },
        pinning,
      },
      settings: runSettings(options, tools),
      rounds,
    };
  });
}

/** What every run notes before it starts anything: the machine, the pinning, its load, the time and the tools. */
export interface RunOpening {
  machine: ReturnType<typeof describeMachine>;
  pinning: ReturnType<typeof planPinning>;
  loadStart: ReturnType<typeof loadAverage>;
  startedAt: string;
  tools: Awaited<ReturnType<typeof describeTools>>;
}

/** Chooses the servers' Node, pins this script, and notes what RunOpening records. */
export async function openRun(
  options: CommonOptions,
  progress: (message: string) => void,
): Promise<RunOpening> {
  runServersOn(options.node);
  const machine = describeMachine(serversNode());
  // Planned before this script is pinned, which narrows the CPUs it sees.
  const pinning = planPinning(options.pin);
  progress(pinBenchScript(pinning));
  const loadStart = loadAverage();
  const startedAt = new Date().toISOString();
  const tools = await describeTools(options.tool);
  progress(`load average ${loadStart.join(', ')} on ${machine.cores} cores; starting the launcher`);
  return { machine, pinning, loadStart, startedAt, tools };
}

/** What a run's JSON records of how it was measured. */
export function runSettings(
  options: CommonOptions,
  tools: Pick<RunSettings, 'throughputTool' | 'rateTool'>,
): RunSettings {
  return {
    rounds: options.rounds,
    durationSeconds: options.durationSeconds,
    warmupSeconds: options.warmupSeconds,
    connections: options.connections,
    rates: options.rates,
    rateDurationSeconds: options.rateDurationSeconds,
    rateConnections: options.rateConnections,
    ...tools,
    logLevel: options.logLevel,
    probes: options.probes,
  };
}

/**
 * Runs `body`, then `cleanUp` however it ends: on success, on an error, and on Ctrl-C or SIGTERM (then exits
 * 130), so that no server the benchmark started outlives it.
 */
export async function stoppingOnSignals<T>(
  progress: (message: string) => void,
  cleanUp: () => Promise<void>,
  body: () => Promise<T>,
): Promise<T> {
  const interrupted = (signal: NodeJS.Signals) => {
    progress(`${signal}: stopping the servers`);
    void cleanUp().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    return await body();
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await cleanUp();
  }
}

import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { CpuMeter, type CpuSample, type CpuUsage } from './cpu-meter';
import { runAtRate, runClosedLoop, type Probe, type RateResult, type ThroughputResult } from './load-client';
import { clockTicksPerSecond, toolVersion } from './machine-info';
import { descendantTicks, processTicks } from './process-cpu';
import type { Contender, LoadPlan, RateRound, RunSettings, ThroughputRound } from './results';
import { rotate } from './stats';
import { runWrk } from './wrk-runner';

/**
 * A probe as the rounds see it: who answers it, and whether it runs at the fixed rates too. Contenders are
 * bare / direct / gateway unless a benchmark names its own set-ups.
 */
export interface PlannedProbe<C extends string = Contender> {
  id: string;
  contenders: readonly C[];
  fixedRate: boolean;
}

/** The two ways load is put on a contender: as much as it answers, and a fixed rate. */
export interface LoadGenerator {
  closedLoop(probe: Probe, seconds: number): Promise<ThroughputResult>;
  atRate(
    probe: Probe,
    options: { rate: number; durationMs: number; connections: number },
  ): Promise<RateResult>;
}

export interface Meter {
  sample(): CpuSample;
  since(start: CpuSample): CpuUsage;
}

export interface RoundsSetup<C extends string = Contender> {
  plan: LoadPlan;
  probes: readonly PlannedProbe<C>[];
  /** The request a contender is sent for a probe. */
  request(probe: string, contender: C): Probe;
  load: LoadGenerator;
  meter: Meter;
  progress(message: string): void;
  /** Quiet time after each measurement, so one round's stragglers do not land in the next. */
  pauseMs?: number;
}

/**
 * The closed loop with wrk (one thread, on `cpus` when given) or undici, and the open loop with undici. The
 * undici clients run in this process: pin it with `pinBenchScript` to keep them on the load generator's CPU.
 */
export function loadGenerator(tool: 'wrk' | 'undici', connections: number, cpus?: string): LoadGenerator {
  return {
    closedLoop: (probe, seconds) =>
      tool === 'wrk'
        ? runWrk(probe, { connections, durationMs: seconds * 1000, tool: 'wrk', cpus })
        : runClosedLoop(probe, { connections, durationMs: seconds * 1000 }),
    atRate: (probe, options) => runAtRate(probe, options),
  };
}

/** What the report says measured the rounds. */
export async function describeTools(
  tool: 'wrk' | 'undici',
): Promise<Pick<RunSettings, 'throughputTool' | 'rateTool'>> {
  const throughputTool =
    tool === 'wrk' ? `wrk (${toolVersion('wrk') ?? 'unknown version'}, 1 thread)` : 'undici closed loop';
  const undiciVersion = (
    JSON.parse(await readFile(require.resolve('undici/package.json'), 'utf8')) as { version: string }
  ).version;
  return { throughputTool, rateTool: `undici ${undiciVersion} open loop, Node's HdrHistogram (perf_hooks)` };
}

/**
 * CPU of the launcher process (gateway and services), of its descendants (the embedded PostgreSQL) and of the
 * bare server: the groups the results read; `others` adds a group for each further process (by name: its pid),
 * e.g. a proxy in its own process.
 */
export function contenderMeter(
  launcherPid: number,
  barePid: number,
  others: Record<string, number> = {},
): CpuMeter {
  return new CpuMeter(
    [
      { name: 'launcher', ticks: () => processTicks(launcherPid)?.own ?? 0 },
      { name: 'database', ticks: () => descendantTicks(launcherPid) },
      { name: 'bare', ticks: () => processTicks(barePid)?.own ?? 0 },
      ...Object.entries(others).map(([name, pid]) => ({ name, ticks: () => processTicks(pid)?.own ?? 0 })),
    ],
    clockTicksPerSecond(),
  );
}

function othersCores(cpu: CpuUsage): string {
  return (cpu.wallSeconds > 0 ? cpu.others / cpu.wallSeconds : 0).toFixed(2);
}

/**
 * Warms every contender up on every probe, then runs the rounds: maximum throughput on every probe, then each
 * fixed rate on the probes marked for it. Within a round the contenders run back to back, in an order that
 * rotates from round to round, with the CPU they spent read around each measurement.
 */
export async function measureRounds<C extends string = Contender>(
  setup: RoundsSetup<C>,
): Promise<{ throughput: ThroughputRound<C>[]; fixedRate: RateRound<C>[] }> {
  const { plan, probes, request, load, meter, progress } = setup;
  const pause = () => sleep(setup.pauseMs ?? 1000);
  for (const probe of probes) {
    for (const contender of probe.contenders) {
      progress(`warm-up ${probe.id} ${contender} ${plan.warmupSeconds} s`);
      await load.closedLoop(request(probe.id, contender), plan.warmupSeconds);
      await pause();
    }
  }

  const throughput: ThroughputRound<C>[] = [];
  for (let round = 1; round <= plan.rounds; round++) {
    for (const probe of probes) {
      for (const contender of rotate(probe.contenders, round - 1)) {
        const before = meter.sample();
        const result = await load.closedLoop(request(probe.id, contender), plan.durationSeconds);
        const cpu = meter.since(before);
        throughput.push({ round, probe: probe.id, contender, result, cpu });
        progress(
          `max round ${round} ${probe.id} ${contender}: ${result.reqPerSec.toFixed(0)} req/s, p50 ${result.latencyMs.p50} ms, ` +
            `p99 ${result.latencyMs.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}, others ${othersCores(cpu)} cores`,
        );
        if (result.non2xx > 0) {
          throw new Error(
            `${contender} answered ${result.non2xx} non-2xx responses to ${probe.id}: the figures would be meaningless`,
          );
        }
        await pause();
      }
    }
  }

  const fixedRate: RateRound<C>[] = [];
  for (let round = 1; round <= plan.rounds; round++) {
    for (const probe of probes.filter((p) => p.fixedRate)) {
      for (const rate of plan.rates) {
        for (const contender of rotate(probe.contenders, round - 1)) {
          const before = meter.sample();
          const result = await load.atRate(request(probe.id, contender), {
            rate,
            durationMs: plan.rateDurationSeconds * 1000,
            connections: plan.rateConnections,
          });
          const cpu = meter.since(before);
          fixedRate.push({ round, probe: probe.id, rate, contender, result, cpu });
          progress(
            `rate round ${round} ${probe.id} ${contender}: ${result.achievedRate.toFixed(0)}/${rate} req/s, ` +
              `p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}, ` +
              `unanswered ${result.unanswered}, others ${othersCores(cpu)} cores`,
          );
          await pause();
        }
      }
    }
  }
  return { throughput, fixedRate };
}

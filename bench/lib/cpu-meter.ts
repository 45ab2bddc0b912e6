import { performance } from 'node:perf_hooks';
import { machineTicks, processTicks } from './process-cpu';

/** A named set of processes whose CPU time the meter reads, e.g. the server under test or its database. */
export interface CpuGroup {
  name: string;
  /** Current CPU time of the group, in clock ticks. */
  ticks(): number;
}

export interface CpuSample {
  at: number;
  machine: { busy: number; total: number };
  groups: number[];
  /** This process (the orchestrator or in-process load generator) and the children it has reaped (wrk). */
  loadGenerator: number;
}

/** CPU seconds spent during one measurement, split by who spent them. */
export interface CpuUsage {
  wallSeconds: number;
  groups: Record<string, number>;
  loadGenerator: number;
  /** Busy CPU time on the machine that none of our processes account for: other people's work. */
  others: number;
  /** All busy CPU time on the machine. */
  machineBusy: number;
}

/**
 * Reads CPU time from /proc before and after a measurement. Per-request CPU cost is much steadier than
 * throughput on a shared machine, and the time of other processes tells how noisy a round was.
 */
export class CpuMeter {
  constructor(
    private readonly groups: readonly CpuGroup[],
    private readonly ticksPerSecond: number,
  ) {}

  sample(): CpuSample {
    const self = processTicks('self');
    return {
      at: performance.now(),
      machine: machineTicks(),
      groups: this.groups.map((g) => g.ticks()),
      loadGenerator: self ? self.own + self.reapedChildren : 0,
    };
  }

  since(start: CpuSample): CpuUsage {
    const end = this.sample();
    const seconds = (ticks: number) => Math.max(0, ticks) / this.ticksPerSecond;
    const groups: Record<string, number> = {};
    this.groups.forEach((g, i) => {
      groups[g.name] = seconds(end.groups[i] - start.groups[i]);
    });
    const loadGenerator = seconds(end.loadGenerator - start.loadGenerator);
    const machineBusy = seconds(end.machine.busy - start.machine.busy);
    const ours = Object.values(groups).reduce((a, b) => a + b, 0) + loadGenerator;
    return {
      wallSeconds: (end.at - start.at) / 1000,
      groups,
      loadGenerator,
      others: Math.max(0, machineBusy - ours),
      machineBusy,
    };
  }
}

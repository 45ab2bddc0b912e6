import type { LatencyMs } from '../lib/load-client';
import type { MachineInfo } from '../lib/machine-info';
import { median, round } from '../lib/stats';

/** One burst at one rate against one set-up, with the database counted afterwards. */
export interface BurstRecord {
  rate: number;
  /** Epoch ms of the burst's start (to place it in a CPU profile: bench/chat/profile-summary.mjs --from/--to). */
  startedAt?: number;
  durationMs: number;
  attempts: number;
  requests: number;
  retries: number;
  ok: number;
  non2xx: Record<string, number>;
  failed: number;
  retryMismatches: number;
  latency: LatencyMs;
  elapsedMs: number;
  achievedRate: number;
  /** Per 250 ms window of due time (absent in runs before 2026-11-27's fourth session). */
  timeline?: Array<{ atMs: number; n: number; p50: number; max: number }>;
  generatorMaxLoopDelayMs?: number;
  stored: number;
  duplicates: number;
  lost: number;
  loadAverageBefore: number;
  /** CPU milliseconds per request by process group over the burst (the machine's PostgreSQL: every backend). */
  cpuMsPerRequest?: Record<'replicas' | 'gateway' | 'postgres' | 'nats' | 'redis', number>;
}

export interface AssessmentRun {
  date: string;
  machine: MachineInfo;
  pinning: string;
  settings: {
    rate: number;
    durationS: number;
    warmupS?: number;
    retryShare: number;
    students: number;
    quizzes: number;
    questions: number;
    connections: number;
    p99TargetMs: number;
    ladder: number[];
    replicaNodeArgs?: string[];
    warmUpRounds?: number | 'service default';
    lateReplica?: boolean;
  };
  rounds: Array<{ round: number; replicas: number; burst: BurstRecord; ladder: BurstRecord[] }>;
  /** Markdown kept with the run: what the figures mean on this machine. */
  notes?: string;
}

const errorsOf = (b: BurstRecord) => b.failed + Object.values(b.non2xx).reduce((s, n) => s + n, 0);
/** A burst that met every target: p99 within, no error, every attempt stored once, no retry answered differently. */
export const clean = (b: BurstRecord, p99: number) =>
  b.latency.p99 <= p99 &&
  errorsOf(b) === 0 &&
  b.duplicates === 0 &&
  b.lost === 0 &&
  b.stored === b.attempts &&
  b.retryMismatches === 0;

/** The highest rate of a round (burst and ladder) that was clean; 0 when none was. */
export function highestClean(records: readonly BurstRecord[], p99: number): number {
  return Math.max(0, ...records.filter((b) => clean(b, p99)).map((b) => b.rate));
}

/** What the replicas rehearsed before they listened (runs before the warm-up existed record nothing). */
function warmUpSentence(rounds: number | 'service default' | undefined): string {
  if (rounds === undefined) return '';
  if (rounds === 'service default') return ' Each replica ran its own warm-up before it listened (ADR 0019).';
  if (rounds === 0) return ' The replicas ran no warm-up of their own (`--warm-up-rounds 0`: started cold).';
  return ` Each replica ran ${rounds} rounds of its warm-up before it listened (\`--warm-up-rounds\`).`;
}

export function renderAssessmentReport(run: AssessmentRun): string {
  const target = run.settings.p99TargetMs;
  const replicaCounts = [...new Set(run.rounds.map((r) => r.replicas))].sort((x, y) => x - y);
  const per = (replicas: number) => run.rounds.filter((r) => r.replicas === replicas);
  const highest = new Map(
    replicaCounts.map((n) => [n, median(per(n).map((r) => highestClean([r.burst, ...r.ladder], target)))]),
  );
  const lines: string[] = [];
  lines.push('# Assessment: the district burst (issue #12)', '');
  lines.push(
    `Grade submissions (\`POST /api/text-quiz-grades\`, ${run.settings.questions} answers each) through the gateway to the assessment replicas, open loop at a fixed rate for ${run.settings.durationS} s; ${Math.round(run.settings.retryShare * 100)} % of the attempts sent twice with the same \`Idempotency-Key\` (half at once, half after the first answer); ${run.settings.students} signed-in students over ${run.settings.quizzes} quizzes. Afterwards the database is counted: a stored row per attempt, none twice, and every id a client was answered is the stored one. Latency counts from each request's due time.${run.settings.warmupS ? ` Each set-up (replicas and gateway, started fresh) first serves ${run.settings.warmupS} s of submissions at 100/s, not recorded: replicas that have been serving, as a class's burst finds them during the school day.` : ''}${warmUpSentence(run.settings.warmUpRounds)}${run.settings.lateReplica ? ' The last replica of each set-up was started only after the warm-up, and the burst began as soon as the gateway had it in rotation (`--late-replica`: one the autoscaler adds).' : ''}${run.settings.replicaNodeArgs?.length ? ` The replicas ran with \`${run.settings.replicaNodeArgs.join(' ')}\` (those services/assessment/package.json declares, then --replica-node-args).` : ''} Produced by \`npm run bench:assessment -w bench\` (\`bench/assessment/\`).`,
    '',
  );
  lines.push('## Machine', '');
  lines.push(
    `- ${run.machine.cpuModel}, ${run.machine.cores} CPUs, ${run.machine.memoryGiB} GiB; ${run.machine.os} (kernel ${run.machine.kernel}); Node ${run.machine.node}`,
  );
  lines.push(`- ${run.pinning}`);
  lines.push(`- run ${run.date}`, '');
  lines.push(`## Targets (burst of ${run.settings.rate}/s)`, '');
  lines.push(
    '| replicas | p50 ms | p99 ms | max ms | requests | errors | stored / attempts | duplicates | lost | retry answered another id | verdict |',
  );
  lines.push('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of run.rounds) {
    const b = r.burst;
    lines.push(
      `| ${r.replicas} (round ${r.round}) | ${b.latency.p50} | ${b.latency.p99} | ${b.latency.max} | ${b.requests} | ${errorsOf(b)}${errorsOf(b) ? ` ${JSON.stringify(b.non2xx)}` : ''} | ${b.stored} / ${b.attempts} | ${b.duplicates} | ${b.lost} | ${b.retryMismatches} | ${clean(b, target) ? 'met' : b.latency.p99 > target ? `missed: p99 ${round(b.latency.p99 / target, 2)}× the target` : 'missed'} |`,
    );
  }
  const withCpu = run.rounds.filter((r) => r.burst.cpuMsPerRequest);
  if (withCpu.length > 0) {
    lines.push('', '## Where the CPU goes (ms of CPU per request, the burst)', '');
    lines.push('| replicas | assessment replicas | gateway | PostgreSQL | NATS | Redis | total |');
    lines.push('|---|---|---|---|---|---|---|');
    for (const r of withCpu) {
      const c = r.burst.cpuMsPerRequest!;
      const total = c.replicas + c.gateway + c.postgres + c.nats + c.redis;
      lines.push(
        `| ${r.replicas} (round ${r.round}) | ${c.replicas} | ${c.gateway} | ${c.postgres} | ${c.nats} | ${c.redis} | ${round(total, 2)} |`,
      );
    }
  }
  lines.push('', `## Highest sustained rate at p99 ≤ ${target} ms`, '');
  lines.push(
    `After a burst that held, each round tries ${run.settings.ladder.join(', ')}/s and stops at the first rate over the target; after one that missed, it tries lower rates until one holds. The figure is the highest clean rate (median of rounds).`,
    '',
  );
  lines.push('| replicas | rates tried (p99 ms) | highest clean rate /s |');
  lines.push('|---|---|---|');
  for (const n of replicaCounts) {
    const tried = per(n)
      .map((r) =>
        [r.burst, ...r.ladder]
          .map((b) => `${b.rate}: ${b.latency.p99}${clean(b, target) ? '' : '✗'}`)
          .join(', '),
      )
      .join(' · ');
    lines.push(`| ${n} | ${tried} | ${highest.get(n)} |`);
  }
  if (replicaCounts.length > 1) {
    const lo = highest.get(replicaCounts[0]) ?? 0;
    const hi = highest.get(replicaCounts[replicaCounts.length - 1]) ?? 0;
    lines.push(
      '',
      `Scaling factor ${replicaCounts[replicaCounts.length - 1]} ÷ ${replicaCounts[0]} replica(s): **${lo > 0 ? round(hi / lo, 2) : 'n/a'}**.`,
    );
  }
  if (run.notes) lines.push('', '## Notes', '', run.notes.trim());
  return `${lines.join('\n')}\n`;
}

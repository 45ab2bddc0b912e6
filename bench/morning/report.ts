import type { ChatPeer } from '../faults/load';
import type { ErrorRecord, RouteSummary } from './plan';

/** Every chat message delivered to every member of its room while they were in it, in order, once. */
export interface ChatDelivery {
  rooms: number;
  clients: number;
  /** Messages the server numbered in the rooms while clients were in them (the highest seq any client saw). */
  messagesSeen: number;
  /** Seqs a client should have seen (between its first and its last) and did not. */
  missing: number;
  duplicates: number;
  /** Clients whose messages arrived out of order. */
  outOfOrder: number;
  /** Messages sent and never confirmed nor refused. */
  unconfirmed: number;
  examples: string[];
}

/**
 * The fault suite's sequence checks (bench/faults/load.ts's ChatPeer) over the morning's rooms: a client must see
 * every message numbered from one past the room's last when it joined to the last it saw, each once, in ascending
 * order (a Set keeps arrival order). A message after a client's last seen cannot be told from one sent after it left.
 */
export function chatDelivery(peers: ReadonlyMap<string, readonly ChatPeer[]>): ChatDelivery {
  const out: ChatDelivery = {
    rooms: peers.size,
    clients: 0,
    messagesSeen: 0,
    missing: 0,
    duplicates: 0,
    outOfOrder: 0,
    unconfirmed: 0,
    examples: [],
  };
  for (const [room, list] of peers) {
    let highest = 0;
    for (const peer of list) {
      out.clients += 1;
      out.duplicates += peer.duplicates;
      out.unconfirmed += peer.pending.size;
      const seen = [...peer.seqs];
      highest = Math.max(highest, ...seen, 0);
      if (seen.some((s, i) => i > 0 && s < seen[i - 1])) {
        out.outOfOrder += 1;
        if (out.examples.length < 10)
          out.examples.push(`${room} ${peer.name}: out of order ${seen.join(',')}`);
      }
      if (peer.firstSeq === undefined || seen.length === 0) continue;
      for (let s = peer.firstSeq; s <= peer.lastSeq; s++)
        if (!peer.seqs.has(s)) {
          out.missing += 1;
          if (out.examples.length < 10) out.examples.push(`${room} ${peer.name}: missing seq ${s}`);
        }
    }
    out.messagesSeen += highest;
  }
  return out;
}

export interface StepRecord {
  step: number;
  perMinute: number;
  seconds: number;
  sessionsStarted: number;
  sessionsCompleted: number;
  sessionsFailed: number;
  /** Sessions still running when the run gave up waiting for them. */
  sessionsAbandoned: number;
  errors: number;
  routes: RouteSummary[];
  knee: { past: boolean; reasons: string[] };
  errorSamples: ErrorRecord[];
  /** CPU seconds from this step's start to the next's (the last step's: to the end of the drain). */
  cpuSeconds: { processes: Record<string, number>; services: Record<string, number> };
}

export interface MorningRun {
  date: string;
  commit: string;
  machine: unknown;
  pinning: string;
  settings: Record<string, unknown>;
  replicas: Record<string, number>;
  setup: Record<string, unknown>;
  steps: StepRecord[];
  knee: { step: number; perMinute: number; reasons: string[] } | null;
  counts: {
    grades: Record<string, number>;
    comments: { acknowledged: number; missing: number; moderated: number };
    chat: ChatDelivery;
    audioStandInRequests: number;
    /** Pupils' GET /api/audio-lists answers that did not hold their own class's list. */
    audioListsWithoutTheClassList: number;
  };
  failures: string[];
}

const f = (v: number) => (Number.isNaN(v) ? '–' : String(v));

/** A plain table per step: what was measured, no verdict against the issue's targets yet. */
export function renderMorning(run: MorningRun): string {
  const lines: string[] = [
    '# The school morning (issue #38): driver run',
    '',
    `${run.date}, commit ${run.commit}. ${run.pinning}. Replicas: ${Object.entries(run.replicas)
      .map(([s, n]) => `${s} ${n}`)
      .join(', ')} (plus one gateway).`,
    '',
    `Settings: ${Object.entries(run.settings)
      .map(([k, v]) => `${k} ${JSON.stringify(v)}`)
      .join(', ')}.`,
    '',
    `Set-up: ${Object.entries(run.setup)
      .map(([k, v]) => `${k} ${JSON.stringify(v)}`)
      .join(', ')}.`,
    '',
    run.knee
      ? `The knee: step ${run.knee.step + 1} (${run.knee.perMinute} sessions/min): ${run.knee.reasons.join('; ')}.`
      : 'No step passed the knee (p95 limit and errors).',
    '',
  ];
  for (const s of run.steps) {
    lines.push(
      `## Step ${s.step + 1}: ${s.perMinute} sessions/min for ${s.seconds} s`,
      '',
      `Sessions started ${s.sessionsStarted}, completed ${s.sessionsCompleted}, failed ${s.sessionsFailed}, abandoned ${s.sessionsAbandoned}; errors ${s.errors}.`,
      '',
      '| route | count | errors | p50 ms | p95 ms | p99 ms | max ms |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...s.routes.map(
        (r) =>
          `| ${r.route} | ${r.count} | ${r.errors} | ${f(r.p50)} | ${f(r.p95)} | ${f(r.p99)} | ${f(r.max)} |`,
      ),
      '',
    );
    const perSession = (seconds: number) =>
      s.sessionsStarted > 0 ? String(Math.round((seconds * 1000) / s.sessionsStarted)) : '–';
    lines.push(
      "CPU from the step's start to the next's (the last step's to the end of its sessions), by process:",
      '',
      '| process | CPU s | CPU ms per session started |',
      '| --- | ---: | ---: |',
      ...Object.entries(s.cpuSeconds.processes)
        .sort(([, x], [, y]) => y - x)
        .map(([name, seconds]) => `| ${name} | ${seconds} | ${perSession(seconds)} |`),
      '',
    );
    if (s.errorSamples.length > 0)
      lines.push(
        'Errors (first ones):',
        '',
        ...s.errorSamples
          .slice(0, 10)
          .map((e) => `- ${e.route}: ${e.status} (expected ${e.expected}) ${e.message.replace(/\s+/g, ' ')}`),
        '',
      );
  }
  const c = run.counts;
  lines.push(
    '## Counted afterwards',
    '',
    `- Grades: ${JSON.stringify(c.grades)}`,
    `- Comments: ${JSON.stringify(c.comments)}`,
    `- Chat: ${JSON.stringify({ ...c.chat, examples: undefined })}${c.chat.examples.length ? `; ${c.chat.examples.join('; ')}` : ''}`,
    `- Audio stand-in requests: ${c.audioStandInRequests}; pupils' audio-list answers without their class's list: ${c.audioListsWithoutTheClassList}`,
    '',
    run.failures.length
      ? `Failures:\n\n${run.failures.map((x) => `- ${x}`).join('\n')}\n`
      : 'Failures: none.\n',
  );
  return lines.join('\n');
}

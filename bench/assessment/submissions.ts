import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { newHistogram, recordMs, summarise, type LatencyMs } from '../lib/load-client';
import { seededRandom } from '../lib/seeded-random';

/** One submission of the burst: who sends it, for which quiz, with which attempt key and answers. */
export interface Submission {
  token: string;
  quizId: string;
  key: string;
  answers: number[];
  /** Sent a second time with the same key: concurrently (a double click, two tabs) or after the first answer (a retry after a lost reply). */
  retry: 'none' | 'concurrent' | 'after';
}

export interface BurstPlan {
  rate: number;
  durationMs: number;
  retryShare: number;
  tokens: readonly string[];
  quizIds: readonly string[];
  questions: number;
  /** Deterministic choices (retries, answers) for a given seed. */
  seed: number;
}

/**
 * The burst's submissions, in sending order: person i takes quiz ⌊i / people⌋ mod quizzes, so the same person and
 * quiz (one advisory lock) recur only after people × quizzes submissions; `retryShare` of them are sent twice,
 * alternately at once and after the first answer.
 */
export function planBurst(plan: BurstPlan): Submission[] {
  const random = seededRandom(plan.seed);
  const count = Math.floor((plan.rate * plan.durationMs) / 1000);
  const retryEvery = plan.retryShare > 0 ? Math.round(1 / plan.retryShare) : 0;
  const out: Submission[] = [];
  for (let i = 0; i < count; i++) {
    const person = i % plan.tokens.length;
    const quiz = Math.floor(i / plan.tokens.length) % plan.quizIds.length;
    const retried = retryEvery > 0 && i % retryEvery === retryEvery - 1;
    out.push({
      token: plan.tokens[person],
      quizId: plan.quizIds[quiz],
      key: randomUUID(),
      answers: Array.from({ length: plan.questions }, () => Math.floor(random() * 4)),
      retry: retried ? ((i / retryEvery) % 2 < 1 ? 'concurrent' : 'after') : 'none',
    });
  }
  return out;
}

export interface BurstResult {
  rate: number;
  durationMs: number;
  /** Distinct attempts (keys) sent, and requests including retries. */
  attempts: number;
  requests: number;
  retries: number;
  /** Answers by status class, and requests that got no answer (connection errors, timeouts). */
  ok: number;
  non2xx: Record<string, number>;
  failed: number;
  /** A retry answered with another grade id than its first send (a duplicate the client would see). */
  retryMismatches: number;
  /** Grade ids answered per key: what the database is compared with. */
  idsByKey: Map<string, string>;
  /** Latency of every request from its due time (open loop: a stall is paid by everything queued behind it). */
  latency: LatencyMs;
  /** Seconds from the first due time to the last answer. */
  elapsedMs: number;
  achievedRate: number;
  /**
   * Where in the burst the time went: per 250 ms window of due time, the requests due in it and their median and
   * slowest latency (a stall shows as a run of windows whose slowest grows by 250 ms each); and the load generator's
   * own longest event-loop delay, so a stall of the generator is not blamed on the servers.
   */
  timeline: Array<{ atMs: number; n: number; p50: number; max: number }>;
  generatorMaxLoopDelayMs: number;
}

const WINDOW_MS = 250;

/**
 * Sends the plan open-loop at `rate` per second through `origin` (POST /api/text-quiz-grades with the
 * Idempotency-Key), retries as planned, and checks that every retry got the first send's grade.
 */
export async function runBurst(
  origin: string,
  path: string,
  submissions: readonly Submission[],
  rate: number,
  connections: number,
  publicOrigin: string,
): Promise<BurstResult> {
  const pool = new Pool(origin, {
    connections,
    pipelining: 1,
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
    keepAliveTimeout: 60_000,
  });
  const latency = newHistogram();
  const non2xx: Record<string, number> = {};
  const idsByKey = new Map<string, string>();
  let ok = 0;
  let failed = 0;
  let requests = 0;
  let retries = 0;
  let retryMismatches = 0;
  let lastDone = 0;
  const pending = new Set<Promise<void>>();
  const windows: number[][] = [];
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  let started = 0;

  const send = async (s: Submission, due: number): Promise<string | undefined> => {
    requests += 1;
    try {
      const { statusCode, body } = await pool.request({
        path,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          cookie: `district_session=${s.token}`,
          'idempotency-key': s.key,
          origin: publicOrigin,
        },
        body: JSON.stringify({ quizId: s.quizId, userAnswers: s.answers }),
      });
      const text = await body.text();
      const done = performance.now();
      lastDone = Math.max(lastDone, done);
      recordMs(latency, done - due);
      (windows[Math.floor((due - started) / WINDOW_MS)] ??= []).push(done - due);
      if (statusCode >= 200 && statusCode < 300) {
        ok += 1;
        return (JSON.parse(text) as { id: string }).id;
      }
      non2xx[String(statusCode)] = (non2xx[String(statusCode)] ?? 0) + 1;
      return undefined;
    } catch {
      failed += 1;
      return undefined;
    }
  };

  const fire = (s: Submission, due: number) => {
    const first = send(s, due);
    let exchange: Promise<void>;
    if (s.retry === 'none') {
      exchange = first.then((id) => void (id && idsByKey.set(s.key, id)));
    } else {
      retries += 1;
      const second = s.retry === 'concurrent' ? send(s, due) : first.then(() => send(s, performance.now()));
      exchange = Promise.all([first, second]).then(([a, b]) => {
        if (a && b && a !== b) retryMismatches += 1;
        const id = a ?? b;
        if (id) idsByKey.set(s.key, id);
      });
    }
    pending.add(exchange);
    void exchange.finally(() => pending.delete(exchange));
  };

  const interval = 1000 / rate;
  loopDelay.enable();
  started = performance.now();
  await new Promise<void>((resolve) => {
    let next = 0;
    const tick = () => {
      const now = performance.now();
      while (next < submissions.length && started + next * interval <= now) {
        fire(submissions[next], started + next * interval);
        next += 1;
      }
      if (next >= submissions.length) return resolve();
      setTimeout(tick, Math.max(0, started + next * interval - performance.now()));
    };
    tick();
  });
  await Promise.all(pending);
  loopDelay.disable();
  await pool.close();
  const elapsedMs = lastDone - started;
  return {
    rate,
    durationMs: submissions.length * interval,
    attempts: submissions.length,
    requests,
    retries,
    ok,
    non2xx,
    failed,
    retryMismatches,
    idsByKey,
    latency: summarise(latency),
    elapsedMs: Math.round(elapsedMs),
    achievedRate: Math.round((submissions.length / Math.max(elapsedMs, 1)) * 1000),
    timeline: Array.from(windows, (w, i) => {
      const sorted = (w ?? []).sort((x, y) => x - y);
      const at = (q: number) =>
        sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]) : 0;
      return { atMs: i * WINDOW_MS, n: sorted.length, p50: at(0.5), max: at(1) };
    }),
    generatorMaxLoopDelayMs: Math.round(loopDelay.max / 1e6),
  };
}

import { createHistogram, performance, type RecordableHistogram } from 'node:perf_hooks';
import { Pool } from 'undici';

/** One HTTP request the clients repeat: GET on a path with fixed headers (the session cookie). */
export interface Probe {
  origin: string;
  path: string;
  headers: Record<string, string>;
}

export interface LatencyMs {
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
}

/** A closed-loop measurement of the most a server answers: `connections` clients, each waiting for its answer. */
export interface ThroughputResult {
  tool: string;
  durationSeconds: number;
  /** Answers received in the window (any status). */
  requests: number;
  reqPerSec: number;
  latencyMs: Omit<LatencyMs, 'p999'>;
  /** Answers that were not 2xx. */
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
}

/** An open-loop measurement at a fixed request rate. */
export interface RateResult {
  targetRate: number;
  durationSeconds: number;
  scheduled: number;
  completed: number;
  achievedRate: number;
  non2xx: number;
  errors: number;
  /** Requests still unanswered when the drain period ran out. */
  unanswered: number;
  /** From the moment each request was due to be sent, so a stalled server cannot hide its queue. */
  latencyMs: LatencyMs;
  /** From the moment each request was actually written (what a closed-loop tool reports). */
  serviceTimeMs: LatencyMs;
}

export const newHistogram = (): RecordableHistogram =>
  createHistogram({ lowest: 1, highest: 3_600e9, figures: 3 });

/** Records a duration given in milliseconds; the histogram holds nanoseconds. */
export function recordMs(histogram: RecordableHistogram, ms: number): void {
  histogram.record(Math.max(1, Math.round(ms * 1e6)));
}

export function summarise(histogram: RecordableHistogram): LatencyMs {
  if (histogram.count === 0) return { mean: 0, p50: 0, p90: 0, p99: 0, p999: 0, max: 0 };
  const ms = (ns: number) => Math.round((ns / 1e6) * 1000) / 1000;
  return {
    mean: ms(histogram.mean),
    p50: ms(histogram.percentile(50)),
    p90: ms(histogram.percentile(90)),
    p99: ms(histogram.percentile(99)),
    p999: ms(histogram.percentile(99.9)),
    max: ms(histogram.max),
  };
}

function newPool(origin: string, connections: number, timeoutMs: number): Pool {
  return new Pool(origin, {
    connections,
    pipelining: 1,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    keepAliveTimeout: 60_000,
  });
}

/** Sends the probe once; resolves with the status code after the whole body has been read. */
async function send(pool: Pool, probe: Probe): Promise<number> {
  const { statusCode, body } = await pool.request({
    path: probe.path,
    method: 'GET',
    headers: probe.headers,
  });
  for await (const _chunk of body) {
    // Reading the body is part of the exchange being measured.
  }
  return statusCode;
}

/**
 * Closed loop with undici: the stand-in for wrk where wrk is not installed. Each connection sends its next
 * request as soon as the previous answer is read; only answers received inside the window count.
 */
export async function runClosedLoop(
  probe: Probe,
  options: { connections: number; durationMs: number; timeoutMs?: number },
): Promise<ThroughputResult> {
  const pool = newPool(probe.origin, options.connections, options.timeoutMs ?? 10_000);
  const histogram = newHistogram();
  let requests = 0;
  let non2xx = 0;
  let errors = 0;
  const started = performance.now();
  const end = started + options.durationMs;
  const worker = async () => {
    while (performance.now() < end) {
      const sent = performance.now();
      try {
        const status = await send(pool, probe);
        const done = performance.now();
        if (done > end) break;
        requests += 1;
        if (status < 200 || status > 299) non2xx += 1;
        recordMs(histogram, done - sent);
      } catch {
        errors += 1;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: options.connections }, worker));
  } finally {
    await pool.close();
  }
  const durationSeconds = (Math.max(performance.now(), end) - started) / 1000;
  const { p999: _p999, ...latencyMs } = summarise(histogram);
  return {
    tool: 'undici closed loop',
    durationSeconds,
    requests,
    reqPerSec: requests / (options.durationMs / 1000),
    latencyMs,
    non2xx,
    errors,
  };
}

/**
 * Open loop with undici: request i is due at start + i / rate whatever happened before it, and its latency
 * is counted from that due time (no coordinated omission: a server that stalls pays for the whole queue
 * behind the stall). Timers wake the loop at most every millisecond or so; the lateness that adds is the
 * same for every server measured, so differences between them are unaffected.
 */
export async function runAtRate(
  probe: Probe,
  options: { rate: number; durationMs: number; connections: number; drainMs?: number; timeoutMs?: number },
): Promise<RateResult> {
  const pool = newPool(probe.origin, options.connections, options.timeoutMs ?? 30_000);
  const fromDue = newHistogram();
  const fromSend = newHistogram();
  const interval = 1000 / options.rate;
  const scheduled = Math.floor((options.rate * options.durationMs) / 1000);
  let completed = 0;
  let non2xx = 0;
  let errors = 0;
  let lastDone = 0;
  const pending = new Set<Promise<void>>();

  const fire = (due: number) => {
    const sent = performance.now();
    const exchange = send(pool, probe).then(
      (status) => {
        const done = performance.now();
        completed += 1;
        lastDone = done;
        if (status < 200 || status > 299) non2xx += 1;
        recordMs(fromDue, done - due);
        recordMs(fromSend, done - sent);
      },
      () => {
        errors += 1;
      },
    );
    pending.add(exchange);
    void exchange.finally(() => pending.delete(exchange));
  };

  const started = performance.now();
  await new Promise<void>((resolve) => {
    let next = 0;
    const tick = () => {
      const now = performance.now();
      while (next < scheduled && started + next * interval <= now) {
        fire(started + next * interval);
        next += 1;
      }
      if (next >= scheduled) {
        resolve();
        return;
      }
      setTimeout(tick, Math.max(0, started + next * interval - performance.now()));
    };
    tick();
  });

  const drained = Promise.all(pending).then(() => true);
  const gaveUp = new Promise<boolean>((resolve) =>
    setTimeout(() => resolve(false), options.drainMs ?? 10_000).unref(),
  );
  await Promise.race([drained, gaveUp]);
  // Read before the pool is destroyed: destroying it fails the unanswered requests, which are not errors.
  const unanswered = pending.size;
  const failed = errors;
  await pool.destroy();
  // Answers per second from the first due time to the last answer: equal to the rate when the server keeps up.
  const busySeconds = Math.max(options.durationMs, lastDone - started) / 1000;
  return {
    targetRate: options.rate,
    durationSeconds: options.durationMs / 1000,
    scheduled,
    completed,
    achievedRate: completed / busySeconds,
    non2xx,
    errors: failed,
    unanswered,
    latencyMs: summarise(fromDue),
    serviceTimeMs: summarise(fromSend),
  };
}

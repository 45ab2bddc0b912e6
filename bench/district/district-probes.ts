import { performance, type RecordableHistogram } from 'node:perf_hooks';
import { Pool } from 'undici';
import { newHistogram, recordMs } from '../lib/load-client';
import { round } from '../lib/stats';
import type { LatencyFigures } from './district-report';

/** One page's requests: GETs sent at once with a session cookie, as the page sends them. */
export interface ProbeSpec {
  cookie: string;
  parts: Record<string, string>;
}

export type ProbeResult = LatencyFigures & {
  parts: Record<string, LatencyFigures>;
  totals: Record<string, number | null>;
};

function figures(h: RecordableHistogram, errors: number): LatencyFigures {
  const ms = (ns: number) => round(ns / 1e6, 2);
  if (h.count === 0) return { n: 0, p50: 0, p95: 0, p99: 0, max: 0, errors };
  return {
    n: h.count,
    p50: ms(h.percentile(50)),
    p95: ms(h.percentile(95)),
    p99: ms(h.percentile(99)),
    max: ms(h.max),
    errors,
  };
}

/** Sends one GET and reads the whole body; resolves with the status, its X-Total-Count and the body's first bytes. */
async function get(
  pool: Pool,
  path: string,
  cookie: string,
): Promise<{ status: number; total: number | null; head: string }> {
  const { statusCode, headers, body } = await pool.request({
    path,
    method: 'GET',
    headers: { cookie, accept: 'application/json' },
  });
  let head = '';
  for await (const chunk of body) if (head.length < 300) head += (chunk as Buffer).toString('utf8');
  const total = headers['x-total-count'];
  return {
    status: statusCode,
    total: typeof total === 'string' ? Number(total) : null,
    head: head.slice(0, 300),
  };
}

/**
 * `warmup` iterations not recorded, then `iterations` recorded, one after the other over keep-alive connections;
 * an iteration sends every part at once and counts until the last answer. Any non-2xx counts as an error (the first
 * few are reported through `onError` with their body).
 */
export async function measureProbe(
  origin: string,
  spec: ProbeSpec,
  options: { warmup: number; iterations: number; onError: (message: string) => void },
): Promise<ProbeResult> {
  const names = Object.keys(spec.parts);
  const pool = new Pool(origin, {
    connections: names.length,
    pipelining: 1,
    keepAliveTimeout: 60_000,
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
  });
  const whole = newHistogram();
  const perPart = new Map(names.map((n) => [n, newHistogram()]));
  const partErrors = new Map(names.map((n) => [n, 0]));
  const totals: Record<string, number | null> = Object.fromEntries(names.map((n) => [n, null]));
  let errors = 0;
  let reported = 0;
  try {
    for (let i = 0; i < options.warmup + options.iterations; i++) {
      const record = i >= options.warmup;
      const started = performance.now();
      const answers = await Promise.all(
        names.map(async (name) => {
          const sent = performance.now();
          try {
            const answer = await get(pool, spec.parts[name], spec.cookie);
            if (record) recordMs(perPart.get(name) as RecordableHistogram, performance.now() - sent);
            return { name, ...answer };
          } catch (error) {
            return { name, status: 0, total: null, head: String(error) };
          }
        }),
      );
      const elapsed = performance.now() - started;
      let failed = false;
      for (const a of answers) {
        if (a.status >= 200 && a.status < 300) {
          totals[a.name] = a.total;
          continue;
        }
        failed = true;
        if (record) partErrors.set(a.name, (partErrors.get(a.name) ?? 0) + 1);
        if (reported++ < 3) options.onError(`GET ${spec.parts[a.name]} answered ${a.status}: ${a.head}`);
      }
      if (!record) continue;
      if (failed) errors += 1;
      else recordMs(whole, elapsed);
    }
  } finally {
    await pool.close();
  }
  return {
    ...figures(whole, errors),
    parts: Object.fromEntries(
      names.map((n) => [n, figures(perPart.get(n) as RecordableHistogram, partErrors.get(n) ?? 0)]),
    ),
    totals,
  };
}

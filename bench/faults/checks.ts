import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The fault suite's verdicts as pure functions, so each can be shown to fail on what it claims to exclude without
 * starting a cluster (checks.spec.ts).
 */

/** No answer at all (status 0: refused, reset, timed out) or a 5xx. */
export const isFailure = (r: { status: number }): boolean => r.status === 0 || r.status >= 500;

/** status → how many answers had it ('0' for no answer). */
export function statusCounts(records: ReadonlyArray<{ status: number }>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of records) counts[String(r.status)] = (counts[String(r.status)] ?? 0) + 1;
  return counts;
}

/**
 * The failures among `statuses` that are not a 503 (a service saying it cannot serve now, with Retry-After): a
 * 500, a gateway's 502 or 504, or no answer at all. A scenario whose failures must "fail closed with 503" passes only
 * when this is empty.
 */
export function failuresOtherThan503(statuses: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(statuses).filter(
      ([status, count]) => count > 0 && status !== '503' && isFailure({ status: Number(status) }),
    ),
  );
}

/** "2 × 502, 1 × no answer" for a check's detail. */
export function describeStatuses(statuses: Readonly<Record<string, number>>): string {
  const entries = Object.entries(statuses);
  if (entries.length === 0) return 'none';
  return entries.map(([status, count]) => `${count} × ${status === '0' ? 'no answer' : status}`).join(', ');
}

export interface WaitOptions {
  /** Pause between two asks. */
  intervalMs?: number;
  /** Injected by tests: the clock and the pause. */
  now?: () => number;
  pause?: (ms: number) => Promise<unknown>;
}

/**
 * Asks `condition` until it holds, and throws once `timeoutMs` has passed without it: a replica that never comes back
 * fails the run, with what was awaited, instead of holding CI until its own timeout.
 */
export async function waitUntil(
  what: string,
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  options: WaitOptions = {},
): Promise<number> {
  const now = options.now ?? Date.now;
  const pause = options.pause ?? sleep;
  const started = now();
  for (;;) {
    if (await condition()) return now() - started;
    if (now() - started >= timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await pause(options.intervalMs ?? 100);
  }
}

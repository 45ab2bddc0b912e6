import pino from 'pino';
import type { BusLogger } from './bus-logger';

/** Helpers for the messaging tests (not exported from the library). */

export const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls until `check` is true; fails with `what` after `timeoutMs`. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 5_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** A short random token usable in subjects, keys and (lower-cased) schema names. */
export function uniqueToken(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

export interface LogRecord {
  level: number;
  msg: string;
  [key: string]: unknown;
}

/** A real pino logger whose records are kept for assertions. */
export function capturingLogger(): { logger: BusLogger; records: LogRecord[] } {
  const records: LogRecord[] = [];
  const logger = pino(
    { level: 'debug' },
    { write: (line: string) => void records.push(JSON.parse(line) as LogRecord) },
  );
  return { logger, records };
}

export const PINO_ERROR = 50;

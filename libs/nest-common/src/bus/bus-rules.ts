import { currentRequestId, runWithRequestId } from '../logging/request-context';
/**
 * Rules both bus adapters apply the same way, so code that works in standalone mode does not break on NATS:
 * subject syntax, header syntax, JSON encoding and the retry schedule.
 */

const TOKEN = /^[^\s.*>]+$/;
// NATS rejects header names outside RFC 7230 tokens and values with CR/LF (header injection).
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_VALUE = /^[^\r\n]*$/;
/** JetStream reserves these headers (message id, expectations, …); they never come from callers. */
const RESERVED_HEADER_PREFIX = 'nats-';

/** A concrete subject to publish or request on: dot-separated tokens, no wildcards. */
export function assertPublishSubject(subject: string): void {
  if (
    typeof subject !== 'string' ||
    subject.length === 0 ||
    !subject.split('.').every((t) => TOKEN.test(t))
  ) {
    throw new Error(`invalid subject "${subject}": use dot-separated tokens without spaces or wildcards`);
  }
}

/** A subscription filter: tokens, `*` for one token, `>` for one or more trailing tokens. */
export function assertFilterSubject(filter: string): void {
  const tokens = typeof filter === 'string' && filter.length > 0 ? filter.split('.') : [''];
  const ok = tokens.every((t, i) => t === '*' || (t === '>' && i === tokens.length - 1) || TOKEN.test(t));
  if (!ok) {
    throw new Error(`invalid subject filter "${filter}": use tokens, "*" for one token, ">" only at the end`);
  }
}

/** NATS subject matching: `*` matches exactly one token, a trailing `>` one or more. */
export function subjectMatches(filter: string, subject: string): boolean {
  const f = filter.split('.');
  const s = subject.split('.');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '>') return s.length > i;
    if (i >= s.length) return false;
    if (f[i] !== '*' && f[i] !== s[i]) return false;
  }
  return f.length === s.length;
}

/**
 * The subjects two filters both match, as one filter, or null when none: `*.audit.v1` and `chat.>` give
 * `chat.audit.v1`. Both must be valid filters.
 */
export function intersectFilters(a: string, b: string): string | null {
  const x = a.split('.');
  const y = b.split('.');
  const out: string[] = [];
  for (let i = 0; ; i++) {
    if (x[i] === '>') return y.length > i ? [...out, ...y.slice(i)].join('.') : null;
    if (y[i] === '>') return x.length > i ? [...out, ...x.slice(i)].join('.') : null;
    if (i === x.length || i === y.length) return x.length === y.length ? out.join('.') : null;
    if (x[i] === '*') out.push(y[i]);
    else if (y[i] === '*' || y[i] === x[i]) out.push(x[i]);
    else return null;
  }
}

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * Copies and checks caller headers; throws on names or values NATS would refuse. The current request id
 * (from the HTTP request or bus message being handled) travels along unless the caller set one.
 */
export function normalizeHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  const requestId = currentRequestId();
  if (requestId && !Object.keys(headers ?? {}).some((h) => h.toLowerCase() === REQUEST_ID_HEADER)) {
    out[REQUEST_ID_HEADER] = requestId;
  }
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (!HEADER_NAME.test(name) || name.toLowerCase().startsWith(RESERVED_HEADER_PREFIX)) {
      throw new Error(`invalid header name "${name}"`);
    }
    if (typeof value !== 'string' || !HEADER_VALUE.test(value)) {
      throw new Error(`invalid value for header "${name}"`);
    }
    out[name] = value;
  }
  return out;
}

/** Runs a handler with the message's request id as the current one, so its logs and onward messages carry it. */
export function inRequestContext<A extends unknown[], R>(
  handler: (...args: A) => Promise<R>,
  headersOf: (...args: A) => Record<string, string>,
): (...args: A) => Promise<R> {
  return (...args: A) => runWithRequestId(headersOf(...args)[REQUEST_ID_HEADER], () => handler(...args));
}

export function isReservedHeader(name: string): boolean {
  return name.toLowerCase().startsWith(RESERVED_HEADER_PREFIX);
}

/** `undefined` has no JSON form; it travels as null, as it would after any real serialisation. */
export function encodeJson(data: unknown): string {
  return JSON.stringify(data ?? null);
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Redelivery delays double from the base and are capped, so a dependency that is down for minutes is outlasted. */
export const MAX_RETRY_DELAY_MS = 60_000;
/** Each delay is spread by up to ±20 %, so messages that failed together (a dependency went down) do not all retry at once. */
export const RETRY_JITTER = 0.2;

/** The delay before redelivery `deliveryCount + 1`: doubling from `baseMs`, capped, then jittered. */
export function retryDelay(
  baseMs: number,
  deliveryCount: number,
  random: () => number = Math.random,
): number {
  const backoff = Math.min(baseMs * 2 ** Math.max(0, deliveryCount - 1), MAX_RETRY_DELAY_MS);
  return Math.round(backoff * (1 + RETRY_JITTER * (2 * random() - 1)));
}

import type { ZodType } from 'zod';

/** A failed call. `message` is the server's JSON `message` when it sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** True when the server itself supplied the message (so it may be shown as is). */
    readonly fromServer: boolean,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions<T> {
  method?: Method;
  /** Sent as JSON, except FormData, which goes as multipart (the browser sets its boundary). */
  body?: unknown;
  /**
   * Validates the answer; a mismatch is reported as an ApiError, never passed on untyped. A function loads the
   * schema (a dynamic import, started with the request) so zod stays out of the first paint's code (ADR 0023).
   */
  schema?: ZodType<T> | (() => Promise<ZodType<T>>);
  /**
   * Instead of `schema`: a zod-free check of the contract's type (src/lib/shape-guard.ts) for an answer the first
   * screen waits for, so the page needs no schema chunk to show it (ADR 0024). It returns the value to pass on
   * (unknown fields dropped, as zod does), or undefined, reported like a schema mismatch.
   */
  guard?: (value: unknown) => T | undefined;
  signal?: AbortSignal;
  /** Bypass every HTTP cache (the spec asks this of /api/auth/me and single public posts). */
  noCache?: boolean;
  /** Extra request headers (e.g. `Idempotency-Key` on a quiz submission). */
  headers?: Record<string, string>;
}

async function readMessage(res: Response): Promise<string | null> {
  try {
    const data: unknown = await res.json();
    if (data && typeof data === 'object' && 'message' in data) {
      const m = (data as { message: unknown }).message;
      if (typeof m === 'string' && m.length > 0) return m;
      if (Array.isArray(m) && typeof m[0] === 'string') return m[0];
    }
  } catch {
    // A non-JSON error body (e.g. a proxy's HTML page) carries nothing worth showing.
  }
  return null;
}

/** A successful answer together with its headers, for the calls that read one (e.g. `X-Total-Count`). */
export interface ApiResponse<T> {
  data: T;
  headers: Headers;
}

/**
 * The one way the SPA talks to the API: same-origin, cookies included, JSON (or a form) in and JSON out.
 * Errors carry the server's `message` so screens can show the spec's wording.
 */
export async function apiResponse<T = unknown>(
  path: string,
  options: RequestOptions<T> = {},
): Promise<ApiResponse<T>> {
  const { method = 'GET', body, signal, noCache } = options;
  // A guard replaces the schema: nothing of zod is loaded for this answer.
  const schemaReady = options.guard
    ? undefined
    : typeof options.schema === 'function'
      ? options.schema()
      : options.schema;
  // A failed chunk load surfaces when the answer is read; until then it must not count as unhandled.
  if (schemaReady instanceof Promise) schemaReady.catch(() => undefined);
  const form = body instanceof FormData;
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (body !== undefined && !form) headers['Content-Type'] = 'application/json';
  if (noCache) headers['Cache-Control'] = 'no-cache';

  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      credentials: 'include',
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
      cache: noCache ? 'no-store' : 'default',
      signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'Network error. Please check your connection and try again.', false);
  }

  if (!res.ok) {
    const message = await readMessage(res);
    throw new ApiError(res.status, message ?? `Request failed (${res.status})`, message !== null);
  }
  if (res.status === 204) return { data: undefined as T, headers: res.headers };

  let data: unknown;
  try {
    data = await res.json();
  } catch {
    throw new ApiError(res.status, 'The server sent an unreadable answer.', false);
  }
  if (options.guard) {
    const checked = options.guard(data);
    if (checked === undefined) throw new ApiError(res.status, 'The server sent an unexpected answer.', false);
    return { data: checked, headers: res.headers };
  }
  const schema = await schemaReady;
  if (!schema) return { data: data as T, headers: res.headers };
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new ApiError(res.status, 'The server sent an unexpected answer.', false);
  return { data: parsed.data, headers: res.headers };
}

export async function apiRequest<T = unknown>(path: string, options: RequestOptions<T> = {}): Promise<T> {
  return (await apiResponse(path, options)).data;
}

export const api = {
  get: <T>(path: string, opts?: Omit<RequestOptions<T>, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...opts, method: 'GET' }),
  post: <T>(path: string, body?: unknown, opts?: Omit<RequestOptions<T>, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...opts, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, opts?: Omit<RequestOptions<T>, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...opts, method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown, opts?: Omit<RequestOptions<T>, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...opts, method: 'PATCH', body }),
  delete: <T = void>(path: string, opts?: Omit<RequestOptions<T>, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...opts, method: 'DELETE' }),
};

/** The text to show for a failed call: the server's message when it gave one, else the fallback. */
export function errorMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError && err.fromServer) return err.message;
  return fallback;
}

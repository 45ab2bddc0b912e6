import { vi } from 'vitest';

/**
 * Stubs `fetch` at the network boundary for route-level UI tests: the app's own code (API client,
 * session, query cache) runs unchanged and only the HTTP answers are scripted. Unscripted calls
 * answer 404 with a JSON message, as the gateway does, so a missing stub shows up as a visible failure.
 */
export interface RecordedRequest {
  method: string;
  path: string;
  body: unknown;
  credentials: RequestCredentials | undefined;
  /** Request headers, names in lower case. */
  headers: Record<string, string>;
}

export type Reply =
  | { status?: number; json?: unknown; text?: string; headers?: Record<string, string> }
  | Promise<{ status?: number; json?: unknown; text?: string; headers?: Record<string, string> }>;

type Handler = (req: RecordedRequest) => Reply;

interface Route {
  method: string;
  path: string | RegExp;
  handler: Handler;
}

export interface FetchStub {
  on(method: string, path: string | RegExp, reply: Reply | Handler): FetchStub;
  requests: RecordedRequest[];
  /** Requests made to a method + path (exact path or pattern). */
  calls(method: string, path: string | RegExp): RecordedRequest[];
}

function toResponse(reply: Awaited<Reply>): Response {
  const status = reply.status ?? 200;
  if (status === 204) return new Response(null, { status });
  if (reply.text !== undefined)
    return new Response(reply.text, {
      status,
      headers: { 'Content-Type': 'application/json', ...reply.headers },
    });
  return new Response(JSON.stringify(reply.json ?? null), {
    status,
    headers: { 'Content-Type': 'application/json', ...reply.headers },
  });
}

const matches = (route: Route, method: string, path: string) =>
  route.method === method && (typeof route.path === 'string' ? route.path === path : route.path.test(path));

export function stubFetch(): FetchStub {
  const routes: Route[] = [];
  const requests: RecordedRequest[] = [];

  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      'http://localhost',
    );
    const method = (init.method ?? 'GET').toUpperCase();
    let body: unknown = undefined;
    if (typeof init.body === 'string') {
      try {
        body = JSON.parse(init.body);
      } catch {
        body = init.body;
      }
    }
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const req: RecordedRequest = {
      method,
      path: url.pathname + url.search,
      body,
      credentials: init.credentials,
      headers,
    };
    requests.push(req);
    // Later registrations win, so a test can override a default answer.
    const route = [...routes].reverse().find((r) => matches(r, method, url.pathname));
    if (!route)
      return toResponse({
        status: 404,
        json: { statusCode: 404, message: `No stub for ${method} ${url.pathname}` },
      });
    return toResponse(await route.handler(req));
  });
  vi.stubGlobal('fetch', fetchMock);

  const stub: FetchStub = {
    on(method, path, reply) {
      const handler: Handler = typeof reply === 'function' ? reply : () => reply;
      routes.push({ method: method.toUpperCase(), path, handler });
      return stub;
    },
    requests,
    calls: (method, path) =>
      requests.filter(
        (r) =>
          r.method === method.toUpperCase() &&
          (typeof path === 'string' ? r.path.split('?')[0] === path : path.test(r.path)),
      ),
  };
  return stub;
}

/** A reply the test resolves later, to observe in-flight states (spinners). */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

import { StepRecorder, stepAt } from './plan';

/**
 * The morning's HTTP calls through the gateway, each timed into the recorder of the step it started in and checked
 * against the status it must have: another status (or no answer) is an error with its route and status.
 */
export class Timeline {
  readonly recorders: StepRecorder[] = [];
  readonly stepStarts: number[] = [];

  startStep(index: number): StepRecorder {
    const recorder = new StepRecorder(index);
    this.recorders.push(recorder);
    this.stepStarts.push(performance.now());
    return recorder;
  }

  at(t: number): StepRecorder {
    return this.recorders[stepAt(this.stepStarts, t)];
  }
}

export interface Answer {
  status: number;
  ok: boolean;
  text: string;
  headers: Headers | undefined;
  json<T = Record<string, unknown>>(): T | undefined;
}

export interface CallOptions {
  cookie?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** The status(es) the route must answer. */
  expect: number | readonly number[];
}

const REQUEST_TIMEOUT_MS = 30_000;

export class MorningClient {
  constructor(
    readonly gateway: string,
    private readonly timeline: Timeline | undefined,
  ) {}

  /** `route` names the call in the tables (ids replaced by placeholders); `path` is what is requested. */
  async call(method: string, route: string, path: string, options: CallOptions): Promise<Answer> {
    const expected = typeof options.expect === 'number' ? [options.expect] : options.expect;
    const started = performance.now();
    let status = 0;
    let text = '';
    let headers: Headers | undefined;
    let failure = '';
    try {
      const res = await fetch(`${this.gateway}${path}`, {
        method,
        headers: {
          origin: this.gateway,
          ...(options.cookie ? { cookie: options.cookie } : {}),
          ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...options.headers,
        },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      status = res.status;
      headers = res.headers;
      text = await res.text();
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      failure = cause ?? (error as Error).name;
    }
    const ms = performance.now() - started;
    const ok = expected.includes(status);
    if (this.timeline) {
      const recorder = this.timeline.at(started);
      recorder.time(route, ms);
      if (!ok) recorder.error(route, status, expected.join('|'), failure || text.slice(0, 300));
    }
    return {
      status,
      ok,
      text,
      headers,
      json<T>() {
        try {
          return JSON.parse(text) as T;
        } catch {
          return undefined;
        }
      },
    };
  }

  /** An answer that had the right status and the wrong content (say the class's quiz missing from the list). */
  wrong(route: string, status: number, expected: string, message: string): void {
    this.timeline?.at(performance.now()).error(route, status, expected, message);
  }

  /** Times something other than one HTTP call (a WebSocket join, a message's echo) under `route`. */
  record(
    route: string,
    started: number,
    error?: { status: number; expected: string; message: string },
  ): void {
    if (!this.timeline) return;
    const recorder = this.timeline.at(started);
    recorder.time(route, performance.now() - started);
    if (error) recorder.error(route, error.status, error.expected, error.message);
  }
}

/** The `district_session=…` pair of a sign-in's Set-Cookie, to send back. */
export function sessionCookie(answer: Answer): string | undefined {
  const cookie = answer.headers?.getSetCookie().find((c) => c.startsWith('district_session='));
  return cookie?.split(';')[0];
}

/** Signs in outside any step (the set-up), failing loudly. */
export async function signIn(client: MorningClient, email: string, password: string): Promise<string> {
  const answer = await client.call('POST', 'POST /api/auth/login', '/api/auth/login', {
    body: { email, password },
    expect: 200,
  });
  const cookie = sessionCookie(answer);
  if (!answer.ok || !cookie)
    throw new Error(`sign-in of ${email} answered ${answer.status}: ${answer.text.slice(0, 200)}`);
  return cookie;
}

/** Runs `work` over `items` with at most `width` at a time. */
export async function inParallel<T>(
  items: readonly T[],
  width: number,
  work: (item: T, i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i], i);
      }
    }),
  );
}

import { WebSocket } from 'ws';
import type { ChatServerEvent } from '@district/contracts';

/** Any server event, loosely typed for assertions. */
export type AnyEvent = ChatServerEvent & Record<string, unknown>;

/**
 * A chat client for tests: opens `/ws` with a cookie and an Origin as a browser would, records every event, and
 * waits for the ones a test expects (each event is consumed once, in arrival order).
 */
export class ChatSocket {
  readonly events: AnyEvent[] = [];
  private cursor = 0;
  closed: { code: number; reason: string } | null = null;
  private readonly waiters = new Set<() => void>();

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.events.push(JSON.parse(data.toString()) as AnyEvent);
      this.wake();
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
  }

  /**
   * Resolves once open; rejects with the HTTP status of a refused upgrade (`status` on the error).
   * `autoPong: false`: a client whose network path died (it never answers a ping).
   */
  static open(
    baseUrl: string,
    options: { cookie?: string; origin?: string | null; path?: string; autoPong?: boolean } = {},
  ): Promise<ChatSocket> {
    const url = baseUrl.replace(/^http/, 'ws') + (options.path ?? '/ws');
    const headers: Record<string, string> = {};
    if (options.cookie) headers.cookie = options.cookie;
    const origin = options.origin === undefined ? 'http://localhost:3000' : options.origin;
    const ws = new WebSocket(url, {
      headers,
      autoPong: options.autoPong ?? true,
      ...(origin === null ? {} : { origin }),
    });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new ChatSocket(ws)));
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () =>
          reject(
            Object.assign(new Error(`upgrade refused: ${res.statusCode} ${body}`), {
              status: res.statusCode,
              body,
            }),
          ),
        );
      });
      ws.once('error', reject);
    });
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The next unconsumed event matching `match` (events before it stay unconsumed). */
  async next(match: (e: AnyEvent) => boolean, what = 'event', timeoutMs = 3000): Promise<AnyEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (let i = this.cursor; i < this.events.length; i++) {
        const e = this.events[i];
        if (!match(e)) continue;
        this.events.splice(i, 1);
        return e;
      }
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `timed out waiting for ${what}; got ${JSON.stringify(this.events.slice(this.cursor))}`,
        );
      await this.wait(left);
    }
  }

  type<T extends AnyEvent['type']>(type: T, timeoutMs?: number): Promise<AnyEvent> {
    return this.next((e) => e.type === type, type, timeoutMs);
  }

  /**
   * Joins and waits for its own `joined` and `user_joined` — but for a rejoin with `resume`: a seat taken back is
   * not announced, so there the caller waits for what it expects.
   */
  async join(chatroom: string, name: string, extra: Record<string, unknown> = {}): Promise<AnyEvent> {
    this.send({ type: 'join', name, role: 'student', chatroom, ...extra });
    const first = await this.next(
      (e) => e.type === 'joined' || e.type === 'join_rejected',
      `join of ${name}`,
    );
    if (first.type === 'join_rejected' || extra.resume !== undefined) return first;
    await this.next((e) => e.type === 'user_joined' && e.name === first.name, `own user_joined of ${name}`);
    return first;
  }

  async closedWith(timeoutMs = 3000): Promise<{ code: number; reason: string }> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('the socket did not close');
      await this.wait(left);
    }
    return this.closed;
  }

  /** Nothing more (matching) arrives within `ms`. */
  async quietFor(ms: number, match: (e: AnyEvent) => boolean = () => true): Promise<void> {
    await new Promise((r) => setTimeout(r, ms));
    const extra = this.events.slice(this.cursor).filter(match);
    if (extra.length > 0) throw new Error(`unexpected events: ${JSON.stringify(extra)}`);
  }

  close(): void {
    this.ws.close();
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }
}

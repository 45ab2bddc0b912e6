import { WebSocket } from 'ws';

/** A browser-like chat client through the gateway: the session cookie and the site's Origin at the upgrade. */
export class GatewayChatClient {
  readonly events: Record<string, unknown>[] = [];
  closed: number | null = null;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => this.events.push(JSON.parse(data.toString()) as Record<string, unknown>));
    ws.on('close', (code) => (this.closed = code));
  }

  /** `target`: where to connect (a replica's own address, to place a socket on it); the gateway by default. */
  static open(origin: string, cookie: string, target = origin): Promise<GatewayChatClient> {
    const ws = new WebSocket(`${target.replace(/^http/, 'ws')}/ws`, { origin, headers: { cookie } });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new GatewayChatClient(ws)));
      ws.once('unexpected-response', (_req, res) =>
        reject(Object.assign(new Error(`upgrade refused: ${res.statusCode}`), { status: res.statusCode })),
      );
      ws.once('error', reject);
    });
  }

  send(message: unknown): void {
    this.ws.send(JSON.stringify(message));
  }

  async next(
    match: (e: Record<string, unknown>) => boolean,
    what: string,
    timeoutMs = 5000,
  ): Promise<Record<string, unknown>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const at = this.events.findIndex(match);
      if (at !== -1) return this.events.splice(at, 1)[0];
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.events)}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  async closedWithin(ms: number): Promise<number> {
    const deadline = Date.now() + ms;
    while (this.closed === null) {
      if (Date.now() > deadline) throw new Error(`the socket did not close within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 10));
    }
    return this.closed;
  }

  close(): void {
    this.ws.close();
  }
}

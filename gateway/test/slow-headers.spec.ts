import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { startFakeService, type FakeService } from './support/fake-service';
import { startGateway, type Harness } from './support/gateway-harness';

/**
 * Issue #34 item 5: slow-header (slowloris) defence, measured over real TCP sockets. Headers are dribbled a line a
 * second, as the attack does, for longer than the limit.
 */

interface Dribbler {
  socket: net.Socket;
  /** ms after the first byte when the gateway closed the socket (undefined while open). */
  closedAfterMs(): number | undefined;
  /** Everything the gateway wrote. */
  answer(): string;
  stop(): void;
  closed: Promise<void>;
}

/** Opens a raw socket and sends `lines` one by one, `everyMs` apart, then keeps adding a header line forever. */
function dribble(
  base: string,
  lines: readonly string[],
  {
    everyMs = 1000,
    host = '127.0.0.1',
    prelude = '',
  }: { everyMs?: number; host?: string; prelude?: string } = {},
): Promise<Dribbler> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port: Number(port), host, allowHalfOpen: true });
    const chunks: Buffer[] = [];
    let started = 0;
    let closedAt: number | undefined;
    let timer: NodeJS.Timeout | undefined;
    const closed = new Promise<void>((done) =>
      socket.once('close', () => {
        closedAt = performance.now();
        clearInterval(timer);
        done();
      }),
    );
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      socket.off('error', reject);
      if (prelude !== '') socket.write(prelude);
      started = performance.now();
      let i = 0;
      const next = () => {
        if (socket.destroyed || !socket.writable) return;
        socket.write(i < lines.length ? lines[i] : `X-Slow-${i}: ${'a'.repeat(8)}\r\n`);
        i++;
      };
      next();
      timer = setInterval(next, everyMs);
      resolve({
        socket,
        closedAfterMs: () => (closedAt === undefined ? undefined : closedAt - started),
        answer: () => Buffer.concat(chunks).toString('utf8'),
        stop: () => {
          clearInterval(timer);
          socket.destroy();
        },
        closed,
      });
    });
    socket.once('error', reject);
  });
}

function statusOf(answer: string): number {
  return Number(/^HTTP\/1\.1 (\d{3}) /.exec(answer)?.[1] ?? 0);
}

function bodyOf(answer: string): unknown {
  return JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
}

/** One request on an open keep-alive socket; resolves with the answer's status once its body has arrived. */
function requestOn(socket: net.Socket, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let got = '';
    const onData = (chunk: Buffer) => {
      got += chunk.toString('latin1');
      const head = got.indexOf('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(got)?.[1] ?? NaN);
      if (head !== -1 && got.length >= head + 4 + length) {
        socket.off('data', onData);
        resolve(statusOf(got));
      }
    };
    socket.on('data', onData);
    socket.once('close', () =>
      reject(new Error(`socket closed before an answer (got ${JSON.stringify(got)})`)),
    );
    socket.write(`GET /api/posts HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
  });
}

/**
 * How late the runner's timers (Node's 1 s connection check, the gateway's, ours) may fire on a loaded 2-core
 * machine: the full jest run saw a close at 12,012 ms against an ideal 11,000. The old code closed after 66-96 s
 * (and refused no slow socket), so every bound still tells them apart.
 */
const TIMERS_LATE_MS = 2_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

describe('headers that do not finish in time', () => {
  let content: FakeService;
  let chat: FakeService;
  let harness: Harness;
  let host: string;

  beforeAll(async () => {
    content = await startFakeService('content');
    chat = await startFakeService('chat', { websocket: true });
    harness = await startGateway({ upstreams: { content: [content.url], chat: [chat.url] } });
    host = new URL(harness.base).host;
  });

  afterAll(async () => {
    await harness.close();
    await content.kill();
    await chat.kill();
  });

  it('closes a request and a /ws upgrade still sending headers after 10 s (408 JSON), a silent connection without an answer, and keeps idle keep-alive sockets', async () => {
    const plain = await dribble(harness.base, ['GET /api/posts HTTP/1.1\r\n', `Host: ${host}\r\n`]);
    const upgrade = await dribble(harness.base, [
      'GET /ws HTTP/1.1\r\n',
      `Host: ${host}\r\n`,
      'Upgrade: websocket\r\n',
      'Connection: Upgrade\r\n',
      'Sec-WebSocket-Version: 13\r\n',
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n',
    ]);
    // A connection that sends nothing (a browser's preconnect): closed too, without an unsolicited answer.
    const silent = net.connect(Number(new URL(harness.base).port), '127.0.0.1');
    let silentGot = '';
    silent.on('data', (chunk: Buffer) => (silentGot += chunk.toString('latin1')));
    silent.on('error', () => undefined);
    const silentClosed = new Promise<number>((resolve) => {
      const opened = performance.now();
      silent.once('close', () => resolve(performance.now() - opened));
    });
    // A browser's keep-alive socket: one request, then quiet for longer than the header limit, then another.
    const keepAlive = net.connect(Number(new URL(harness.base).port), '127.0.0.1');
    await new Promise((resolve) => keepAlive.once('connect', resolve));
    expect(await requestOn(keepAlive, host)).toBe(200);
    try {
      await Promise.race([Promise.all([plain.closed, upgrade.closed]), sleep(20_000)]);
      for (const slow of [plain, upgrade]) {
        // The limit is 10 s from the first byte; Node checks every second.
        expect(slow.closedAfterMs()).toBeGreaterThanOrEqual(9_900);
        expect(slow.closedAfterMs()).toBeLessThanOrEqual(11_000 + TIMERS_LATE_MS);
        expect(statusOf(slow.answer())).toBe(408);
        expect(bodyOf(slow.answer())).toMatchObject({ statusCode: 408, message: 'Request timeout' });
      }
      const silentAfterMs = await Promise.race([silentClosed, sleep(3_000).then(() => undefined)]);
      expect(silentAfterMs).toBeGreaterThanOrEqual(9_900);
      expect(silentAfterMs).toBeLessThanOrEqual(11_000 + TIMERS_LATE_MS);
      expect(silentGot).toBe('');
      expect(keepAlive.destroyed).toBe(false);
      expect(await requestOn(keepAlive, host)).toBe(200);
      expect(content.requests.filter((r) => r.url === '/api/posts')).toHaveLength(2);
    } finally {
      plain.stop();
      upgrade.stop();
      keepAlive.destroy();
      silent.destroy();
    }
  }, 30_000);
});

describe('unfinished requests from one address', () => {
  let content: FakeService;

  beforeAll(async () => {
    content = await startFakeService('content');
  });

  afterAll(() => content.kill());

  const openSlow = async (base: string, count: number) => {
    const host = new URL(base).host;
    const sockets: Dribbler[] = [];
    // One after another, so the connection order (which decides who keeps a place) is known.
    for (let i = 0; i < count; i++)
      sockets.push(await dribble(base, ['GET /api/posts HTTP/1.1\r\n', `Host: ${host}\r\n`]));
    return sockets;
  };

  it('closes those beyond 32 with a 429 JSON, keeps the first 32, and still serves that address at full speed', async () => {
    const harness = await startGateway({ upstreams: { content: [content.url] } });
    const slow = await openSlow(harness.base, 40);
    try {
      await Promise.race([Promise.all(slow.slice(32).map((s) => s.closed)), sleep(5_000)]);
      const closed = slow.filter((s) => s.closedAfterMs() !== undefined);
      expect(closed).toEqual(slow.slice(32));
      for (const s of closed) {
        expect(statusOf(s.answer())).toBe(429);
        expect(bodyOf(s.answer())).toMatchObject({
          statusCode: 429,
          message: 'Too many unfinished requests from this address',
        });
        // Refused within two checks of a second each, long before the headers timeout.
        expect(s.closedAfterMs()).toBeLessThan(2_000 + TIMERS_LATE_MS);
      }
      // The same address, 64 requests at once on their own connections: complete headers are never counted.
      const answers = await Promise.all(
        Array.from({ length: 64 }, () =>
          fetch(`${harness.base}/api/posts`, { headers: { connection: 'close' } }).then((r) => r.status),
        ),
      );
      expect(answers).toEqual(Array<number>(64).fill(200));
      await sleep(2_500);
      expect(slow.slice(0, 32).every((s) => s.closedAfterMs() === undefined)).toBe(true);
      expect(harness.logLines).toContainEqual(
        expect.objectContaining({
          msg: 'too many unfinished requests from one address',
          address: '127.0.0.1',
          limit: 32,
        }),
      );
    } finally {
      for (const s of slow) s.stop();
      await harness.close();
    }
  }, 20_000);

  it('counts a kept-alive socket whose next request is dribbling, under the configured limit', async () => {
    const harness = await startGateway({ upstreams: { content: [content.url] }, maxUnfinishedPerAddress: 4 });
    const host = new URL(harness.base).host;
    const { port } = new URL(harness.base);
    const sockets = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const socket = net.connect(Number(port), '127.0.0.1');
        socket.on('error', () => undefined);
        await new Promise((resolve) => socket.once('connect', resolve));
        return socket;
      }),
    );
    const timers: NodeJS.Timeout[] = [];
    try {
      // A complete request each first: each socket is then an idle keep-alive socket, not counted.
      for (const socket of sockets) expect(await requestOn(socket, host)).toBe(200);
      await sleep(2_500);
      expect(sockets.every((s) => !s.destroyed)).toBe(true);
      const answers = sockets.map((socket) => {
        let got = '';
        socket.on('data', (chunk: Buffer) => (got += chunk.toString('latin1')));
        return () => got;
      });
      const closed = sockets.map(
        (socket) => new Promise<void>((resolve) => socket.once('close', () => resolve())),
      );
      // Then the next request, a line a second, on each.
      for (const socket of sockets) {
        socket.write('GET /api/posts HTTP/1.1\r\n');
        timers.push(setInterval(() => socket.writable && socket.write(`X-Slow: 1\r\n`), 1000));
      }
      await Promise.race([Promise.all(closed.slice(4)), sleep(5_000)]);
      expect(sockets.map((s) => s.destroyed)).toEqual([false, false, false, false, true, true]);
      for (const answer of answers.slice(4)) expect(statusOf(answer())).toBe(429);
      expect(await fetch(`${harness.base}/api/posts`).then((r) => r.status)).toBe(200);
    } finally {
      for (const timer of timers) clearInterval(timer);
      for (const socket of sockets) socket.destroy();
      await harness.close();
    }
  }, 20_000);
});

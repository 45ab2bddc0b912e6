import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Writable } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { LiveConnection, PRESENCE_HOLD_MS, textFrame, type LivePerson } from './live-connection';

const person: LivePerson = {
  id: 'u',
  role: 'student',
  approved: true,
  canModerate: false,
  tokenVersion: 1,
  sessionId: 's',
  expiresAt: Number.MAX_SAFE_INTEGER,
};

function fakeSocket() {
  const sent: Buffer[] = [];
  const ws = { OPEN: 1, readyState: 1, bufferedAmount: 0 };
  const calls: string[] = [];
  const socket = {
    write: (frame: Buffer) => {
      sent.push(frame);
      calls.push('write');
    },
    cork: () => calls.push('cork'),
    uncork: () => calls.push('uncork'),
  };
  return { ws, socket: socket as unknown as Writable, sent, calls };
}

const connectionOf = (f: ReturnType<typeof fakeSocket>, limit: number, cut: (c: LiveConnection) => void) =>
  new LiveConnection(f.ws as unknown as WebSocket, f.socket, person, limit, cut);

/** The texts of the frames written, in order. */
const textsOf = (f: ReturnType<typeof fakeSocket>) => f.sent.map((x) => x.subarray(2).toString());

/** A connection that was sent one presence frame (at `t0`, written at once) in a turn that has ended. */
async function afterOnePresence(): Promise<{
  f: ReturnType<typeof fakeSocket>;
  c: LiveConnection;
  t0: number;
}> {
  const f = fakeSocket();
  const c = connectionOf(f, 1000, () => undefined);
  const t0 = Date.now();
  c.sendPresence(textFrame('j1'), t0);
  expect(f.calls).toEqual(['write']);
  await new Promise((r) => setImmediate(r));
  return { f, c, t0 };
}

describe('LiveConnection', () => {
  it('sends frames until the unsent bytes pass the limit, then cuts the client off instead', () => {
    const fake = fakeSocket();
    const { ws, sent } = fake;
    const cut: LiveConnection[] = [];
    const c = connectionOf(fake, 1000, (x) => cut.push(x));
    c.sendFrame(textFrame('a'));
    ws.bufferedAmount = 1000;
    c.sendFrame(textFrame('b'));
    expect(textsOf(fake)).toEqual(['a', 'b']);
    ws.bufferedAmount = 1001;
    c.sendFrame(textFrame('c'));
    expect(sent).toHaveLength(2);
    expect(cut).toEqual([c]);
    c.closing = true;
    ws.bufferedAmount = 0;
    c.sendFrame(textFrame('d'));
    expect(sent).toHaveLength(2);
  });

  it('writes a turn’s first frame at once and the rest of the turn’s frames in one go', async () => {
    const one = fakeSocket();
    const many = fakeSocket();
    const a = connectionOf(one, 1000, () => undefined);
    const b = connectionOf(many, 1000, () => undefined);
    a.sendFrame(textFrame('1'));
    for (const t of ['1', '2', '3']) b.sendFrame(textFrame(t));
    expect(one.calls).toEqual(['write']);
    expect(many.calls).toEqual(['write', 'cork', 'write', 'write']);
    await new Promise((r) => process.nextTick(r));
    expect(one.calls).toEqual(['write']);
    expect(many.calls).toEqual(['write', 'cork', 'write', 'write', 'uncork']);
    // A new turn starts afresh.
    b.sendFrame(textFrame('4'));
    await new Promise((r) => setImmediate(r));
    expect(many.calls.slice(5)).toEqual(['write']);
  });

  it('sends a presence frame after a quiet spell at once, and holds the next ones to go out together', async () => {
    const { f, c, t0 } = await afterOnePresence();
    c.sendPresence(textFrame('j2'), t0 + 10);
    c.sendPresence(textFrame('j3'), t0 + 20);
    expect(f.calls).toEqual(['write', 'cork', 'write', 'write']);
    await new Promise((r) => setTimeout(r, PRESENCE_HOLD_MS + 50));
    expect(f.calls).toEqual(['write', 'cork', 'write', 'write', 'uncork']);
    expect(textsOf(f)).toEqual(['j1', 'j2', 'j3']);
    // A quiet spell since the held ones went: the next goes at once again.
    c.sendPresence(textFrame('j4'), Date.now() + PRESENCE_HOLD_MS);
    expect(f.calls.slice(5)).toEqual(['write']);
  });

  it('lets no other frame wait behind held presence frames, nor overtake them', async () => {
    const { f, c, t0 } = await afterOnePresence();
    c.sendPresence(textFrame('j2'), t0 + 1);
    c.sendFrame(textFrame('m'));
    expect(f.calls).toEqual(['write', 'cork', 'write', 'write', 'uncork']);
    expect(textsOf(f)).toEqual(['j1', 'j2', 'm']);
    // The hold's end finds nothing left to send.
    await new Promise((r) => setTimeout(r, PRESENCE_HOLD_MS + 50));
    expect(f.calls).toHaveLength(5);
  });

  it('cuts off a client whose unsent bytes pass the limit while presence frames are held', () => {
    const f = fakeSocket();
    const cut: LiveConnection[] = [];
    const c = connectionOf(f, 1000, (x) => cut.push(x));
    const t0 = Date.now();
    c.sendPresence(textFrame('j1'), t0);
    c.sendPresence(textFrame('j2'), t0 + 1);
    f.ws.bufferedAmount = 1001;
    c.sendPresence(textFrame('j3'), t0 + 2);
    expect(f.sent).toHaveLength(2);
    expect(cut).toEqual([c]);
    c.release(Date.now());
  });
});

describe('textFrame on a real socket', () => {
  let server: Server;
  let url: string;
  // The server side of the test's one connection: frames written to the socket as the hub does, beside ws's own.
  let serverSide: Promise<LiveConnection>;

  beforeAll(async () => {
    const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, clientTracking: false });
    server = createServer();
    serverSide = new Promise((resolve) =>
      server.on('upgrade', (req, socket, head) =>
        wss.handleUpgrade(req, socket, head, (ws) =>
          resolve(new LiveConnection(ws, socket, person, 1 << 20, () => undefined)),
        ),
      ),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('is read by a ws client as the text sent, at every length encoding, between ws pings and its close', async () => {
    const client = new WebSocket(url);
    const received: string[] = [];
    let pings = 0;
    client.on('message', (data, isBinary) => received.push(isBinary ? '(binary)' : data.toString()));
    client.on('ping', () => (pings += 1));
    const closed = new Promise<number>((resolve) => client.on('close', (code) => resolve(code)));
    const c = await serverSide;
    // 0, 125 (7-bit length), 126 and 65,535 (16-bit), 65,536 and 200,000 (64-bit), and multi-byte text.
    const texts = [0, 1, 125, 126, 65_535, 65_536, 200_000].map((n) => 'x'.repeat(n));
    texts.push('¿Qué tal? Ñandú — 日本 🎉');
    for (const [i, text] of texts.entries()) {
      c.sendFrame(textFrame(text));
      if (i % 2 === 0) c.ws.ping();
    }
    // Presence frames held (corked) and sent with the notice that follows them.
    const presence = ['llegó Ana', 'llegó Íñigo', 'se fue Ana'];
    for (const [i, text] of presence.entries()) c.sendPresence(textFrame(text), Date.now() + i);
    c.send({ type: 'notice', code: 'reconnect', text: 'última' });
    c.ws.close(4000, 'done');
    expect(await closed).toBe(4000);
    expect(received.slice(0, texts.length)).toEqual(texts);
    expect(received.slice(texts.length, texts.length + 3)).toEqual(presence);
    expect(JSON.parse(received[texts.length + 3])).toEqual({
      type: 'notice',
      code: 'reconnect',
      text: 'última',
    });
    expect(received).toHaveLength(texts.length + 4);
    expect(pings).toBe(4);
  });
});

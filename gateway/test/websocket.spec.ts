import { generateKeyPairSync, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import WebSocket from 'ws';
import {
  MemoryEphemeralStore,
  SESSION_COOKIE,
  SessionStateStore,
  TokenService,
  sessionCookieAuthenticator,
  type AuthKeys,
} from '@district/nest-common';
import { startFakeService, unusedPort, type FakeService } from './support/fake-service';
import { PUBLIC_ORIGIN, startGateway, waitFor, type Harness } from './support/gateway-harness';
import { WITHOUT_CHAT_AND_PLANNED } from './support/test-services';

interface Opened {
  ws: WebSocket;
  messages: string[];
  next(): Promise<string>;
}

function wsUrl(base: string, path = '/ws'): string {
  return `${base.replace(/^http/, 'ws')}${path}`;
}

/** Opens a WebSocket and collects its messages; rejects with the HTTP status when the handshake is refused. */
function open(url: string, origin?: string, headers: Record<string, string> = {}): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers, ...(origin === undefined ? {} : { origin }) });
    const messages: string[] = [];
    const waiters: Array<(m: string) => void> = [];
    ws.on('message', (data) => {
      const text = String(data);
      const waiter = waiters.shift();
      if (waiter) waiter(text);
      else messages.push(text);
    });
    ws.once('open', () =>
      resolve({
        ws,
        messages,
        next: () => {
          const queued = messages.shift();
          return queued !== undefined ? Promise.resolve(queued) : new Promise((r) => waiters.push(r));
        },
      }),
    );
    ws.once('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        ws.terminate();
        reject(
          Object.assign(new Error(`handshake refused: ${res.statusCode}`), {
            status: res.statusCode,
            body: Buffer.concat(chunks).toString(),
          }),
        );
      });
    });
    ws.once('error', reject);
  });
}

function closed(ws: WebSocket): Promise<void> {
  return new Promise((resolve) => {
    if (ws.readyState === WebSocket.CLOSED) resolve();
    else ws.once('close', () => resolve());
  });
}

describe('WebSocket upgrades', () => {
  let chatA: FakeService;
  let chatB: FakeService;
  let harness: Harness;

  beforeAll(async () => {
    chatA = await startFakeService('chat', { websocket: true });
    chatB = await startFakeService('chat', { websocket: true });
    harness = await startGateway({ upstreams: { chat: [chatA.url, chatB.url] } });
  });

  afterAll(async () => {
    await harness.close();
    await chatA.kill();
    await chatB.kill();
  });

  it('proxies /ws to a chat replica, both ways', async () => {
    const client = await open(wsUrl(harness.base), PUBLIC_ORIGIN);
    const hello = await client.next();
    expect(hello).toMatch(
      /^hello from chat:\d+ origin=https:\/\/learn\.example-district\.org xff=127\.0\.0\.1$/,
    );
    client.ws.send(JSON.stringify({ type: 'join', name: 'Ana', role: 'student', chatroom: 'r1' }));
    expect(await client.next()).toBe(
      'chat echo: {"type":"join","name":"Ana","role":"student","chatroom":"r1"}',
    );
    client.ws.close();
    await closed(client.ws);
  });

  it('spreads connections over the chat replicas', async () => {
    const clients = await Promise.all([1, 2, 3, 4].map(() => open(wsUrl(harness.base), PUBLIC_ORIGIN)));
    const ports = new Set(
      await Promise.all(clients.map(async (c) => /chat:(\d+)/.exec(await c.next())?.[1])),
    );
    expect(ports).toEqual(new Set([String(chatA.port), String(chatB.port)]));
    for (const c of clients) c.ws.close();
    await Promise.all(clients.map((c) => closed(c.ws)));
  });

  it('accepts a handshake without Origin (not a browser)', async () => {
    const noOrigin = await open(wsUrl(harness.base));
    expect(await noOrigin.next()).toMatch(/^hello from chat/);
    noOrigin.ws.close();
    await closed(noOrigin.ws);
  });

  it('refuses the handshake from the gateway’s own address when it is not a configured origin', async () => {
    await expect(open(wsUrl(harness.base), harness.base)).rejects.toMatchObject({ status: 403 });
  });

  it('refuses a handshake for an unknown Host with 421 before reaching chat (DNS rebinding)', async () => {
    const before = chatA.connections + chatB.connections;
    const port = new URL(harness.base).port;
    await expect(
      open(wsUrl(harness.base), `http://evil.example:${port}`, { Host: `evil.example:${port}` }),
    ).rejects.toMatchObject({ status: 421, body: expect.stringContaining('Unknown host') });
    // Even without an Origin: the name, not the page, is what is wrong.
    await expect(
      open(wsUrl(harness.base), undefined, { Host: `evil.example:${port}` }),
    ).rejects.toMatchObject({
      status: 421,
    });
    expect(chatA.connections + chatB.connections).toBe(before);
  });

  it('accepts a handshake from an allowed extra origin', async () => {
    const other = await startGateway({
      upstreams: { chat: [chatA.url] },
      allowedOrigins: ['https://www.example-district.org'],
    });
    try {
      const client = await open(wsUrl(other.base), 'https://www.example-district.org', {
        Host: 'www.example-district.org',
      });
      expect(await client.next()).toMatch(/^hello from chat:\d+ origin=https:\/\/www\.example-district\.org/);
      client.ws.close();
      await closed(client.ws);
    } finally {
      await other.close();
    }
  });

  it('refuses a handshake from a foreign origin with 403 before reaching chat', async () => {
    const before = chatA.connections + chatB.connections;
    await expect(open(wsUrl(harness.base), 'https://evil.example')).rejects.toMatchObject({
      status: 403,
      body: expect.stringContaining('Cross-origin request refused'),
    });
    expect(chatA.connections + chatB.connections).toBe(before);
  });

  it('refuses upgrades on any other path', async () => {
    await expect(open(wsUrl(harness.base, '/api/chatrooms'), PUBLIC_ORIGIN)).rejects.toMatchObject({
      status: 404,
    });
  });

  it('sends upgrades to whichever service declares /ws', async () => {
    const live = await startFakeService('live', { websocket: true });
    const ws = { path: '/ws', match: 'exact', bodyLimit: 'default', sample: '/ws' } as const;
    const gw = await startGateway({
      services: [{ name: 'live', routes: [ws] }],
      upstreams: { live: [live.url] },
    });
    try {
      const client = await open(wsUrl(gw.base), PUBLIC_ORIGIN);
      expect(await client.next()).toMatch(/^hello from live:\d+ /);
      client.ws.close();
    } finally {
      await gw.close();
      await live.kill();
    }
  });

  it('refuses /ws with 404 while no service declares it, even with chat replicas configured', async () => {
    const before = chatA.connections + chatB.connections;
    const partial = await startGateway({
      services: WITHOUT_CHAT_AND_PLANNED,
      upstreams: { chat: [chatA.url, chatB.url] },
    });
    try {
      await expect(open(wsUrl(partial.base), PUBLIC_ORIGIN)).rejects.toMatchObject({ status: 404 });
      expect(chatA.connections + chatB.connections).toBe(before);
      expect(partial.logLines).toContainEqual(
        expect.objectContaining({ msg: 'upgrade', status: 404, target: 'none' }),
      );
    } finally {
      await partial.close();
    }
  });

  it('answers 503 when no chat replica is reachable', async () => {
    const port = await unusedPort();
    const lonely = await startGateway({ upstreams: { chat: [`http://127.0.0.1:${port}`] } });
    try {
      await expect(open(wsUrl(lonely.base), PUBLIC_ORIGIN)).rejects.toMatchObject({
        status: 503,
        body: expect.stringContaining(
          'The chat service is not available right now. Please try again shortly.',
        ),
      });
      // Now known to be down: refused without trying.
      await expect(open(wsUrl(lonely.base), PUBLIC_ORIGIN)).rejects.toMatchObject({ status: 503 });
    } finally {
      await lonely.close();
    }
  });

  it('closes open WebSockets when the gateway shuts down', async () => {
    const chat = await startFakeService('chat', { websocket: true });
    const gw = await startGateway({ upstreams: { chat: [chat.url] } });
    try {
      const client = await open(wsUrl(gw.base), PUBLIC_ORIGIN);
      await client.next();
      await gw.close();
      await closed(client.ws);
      expect(gw.gateway.isReady()).toBe(false);
    } finally {
      await gw.close();
      await chat.kill();
    }
  });

  it('answers 504 JSON when the replica does not answer the upgrade within the upstream timeout, and keeps it in rotation', async () => {
    const silent = await startSilentUpstream();
    const gw = await startGateway({ upstreams: { chat: [silent.url] }, upstreamTimeoutMs: 300 });
    try {
      const started = Date.now();
      const noAnswer = new Promise<never>((_resolve, reject) =>
        setTimeout(() => reject(new Error('no answer to the handshake within 5 s')), 5_000).unref(),
      );
      await expect(Promise.race([open(wsUrl(gw.base), PUBLIC_ORIGIN), noAnswer])).rejects.toMatchObject({
        status: 504,
        body: expect.stringContaining(
          '"message":"The chat service took too long to answer. Please try again."',
        ),
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      // The gateway gave up on the replica's side too; slow is not down (as for a request: 504, no failover).
      await waitFor(() => silent.open() === 0, 5_000, 'the upstream handshake closed');
      expect(gw.gateway.upstreamStatus().chat).toEqual([{ url: silent.url, up: true }]);
    } finally {
      await gw.close();
      await silent.close();
    }
  });
});

/** A chat replica that takes upgrades and never answers them (hung, or far too slow). */
async function startSilentUpstream(): Promise<{ url: string; open(): number; close(): Promise<void> }> {
  const held = new Set<Duplex>();
  const server = http.createServer((_req, res) => res.end());
  server.on('upgrade', (_req, socket: Duplex) => {
    held.add(socket);
    socket.on('error', () => undefined);
    // Reading, so that the gateway's side closing is seen (an HTTP server's sockets stay half open).
    socket.resume();
    socket.once('end', () => socket.destroy());
    socket.once('close', () => held.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    open: () => held.size,
    close: async () => {
      for (const socket of held) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** ES256 keys as the launcher makes them: identity signs, the gateway's hook only verifies. */
function testKeys(): AuthKeys {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

describe('WebSocket upgrades with a session check (the hook the launcher hands over)', () => {
  const keys = testKeys();
  const tokens = new TokenService(keys);
  const store = new MemoryEphemeralStore();
  const sessions = new SessionStateStore(store);
  /** A store that lost its state (no marker): nothing can be decided. */
  const emptied = new MemoryEphemeralStore();
  const userId = randomUUID();
  let chat: FakeService;
  let harness: Harness;
  let restoring: Harness;

  async function cookieFor(tv: number): Promise<string> {
    const { token } = await tokens.sign({
      sub: userId,
      tv,
      role: 'student',
      approved: true,
      isAdmin: false,
      name: 'Ana',
      username: 'ana',
      email: 'ana@example.org',
    });
    return `theme=dark; ${SESSION_COOKIE}=${token}`;
  }

  beforeAll(async () => {
    await sessions.setVersion(userId, 2);
    await sessions.markRestored();
    chat = await startFakeService('chat', { websocket: true });
    harness = await startGateway({
      upstreams: { chat: [chat.url] },
      authenticate: sessionCookieAuthenticator(keys, store),
    });
    restoring = await startGateway({
      upstreams: { chat: [chat.url] },
      authenticate: sessionCookieAuthenticator(keys, emptied),
    });
  });

  afterAll(async () => {
    await harness.close();
    await restoring.close();
    await chat.kill();
    await store.close();
    await emptied.close();
  });

  it('refuses an upgrade without a session, or with a forged one, with 401 before any replica is contacted', async () => {
    const before = chat.connections;
    await expect(open(wsUrl(harness.base), PUBLIC_ORIGIN)).rejects.toMatchObject({
      status: 401,
      body: expect.stringContaining('Authentication Required'),
    });
    const forged = await cookieFor(2);
    await expect(
      open(wsUrl(harness.base), PUBLIC_ORIGIN, { Cookie: `${forged.slice(0, -4)}AAAA` }),
    ).rejects.toMatchObject({ status: 401 });
    expect(chat.connections).toBe(before);
    expect(harness.logLines).toContainEqual(
      expect.objectContaining({ msg: 'upgrade', status: 401, target: 'chat' }),
    );
  });

  it('refuses a stale session (the user changed) and a revoked one (signed out) with 401', async () => {
    const before = chat.connections;
    await expect(
      open(wsUrl(harness.base), PUBLIC_ORIGIN, { Cookie: await cookieFor(1) }),
    ).rejects.toMatchObject({ status: 401 });
    const signedOut = await cookieFor(2);
    const sid = (await tokens.verify(signedOut.split('=').pop()))?.sid as string;
    await sessions.revokeSession(sid, Date.now() + 60_000);
    await expect(open(wsUrl(harness.base), PUBLIC_ORIGIN, { Cookie: signedOut })).rejects.toMatchObject({
      status: 401,
    });
    expect(chat.connections).toBe(before);
  });

  it('answers 503 with Retry-After while the session state is being restored', async () => {
    const before = chat.connections;
    const refused = await new Promise<{ status?: number; retryAfter?: string }>((resolve) => {
      void cookieFor(2).then((cookie) => {
        const ws = new WebSocket(wsUrl(restoring.base), {
          origin: PUBLIC_ORIGIN,
          headers: { Cookie: cookie },
        });
        ws.once('unexpected-response', (_req, res) => {
          resolve({ status: res.statusCode, retryAfter: String(res.headers['retry-after']) });
          ws.terminate();
        });
        ws.once('error', () => resolve({}));
      });
    });
    expect(refused).toEqual({ status: 503, retryAfter: '1' });
    expect(chat.connections).toBe(before);
  });

  it('lets a valid session through to a chat replica (101), the cookie travelling on for chat to re-verify', async () => {
    const cookie = await cookieFor(2);
    const client = await open(wsUrl(harness.base), PUBLIC_ORIGIN, { Cookie: cookie });
    expect(await client.next()).toMatch(/^hello from chat:\d+ /);
    expect(chat.upgrades[chat.upgrades.length - 1].cookie).toBe(cookie);
    client.ws.send('hola');
    expect(await client.next()).toBe('chat echo: hola');
    expect(harness.logLines).toContainEqual(
      expect.objectContaining({ msg: 'upgrade', status: 101, target: 'chat' }),
    );
    client.ws.close();
    await closed(client.ws);
  });

  it('closes the upstream socket when the client goes, even without a closing handshake', async () => {
    const client = await open(wsUrl(harness.base), PUBLIC_ORIGIN, { Cookie: await cookieFor(2) });
    await client.next();
    expect(chat.sockets.size).toBe(1);
    client.ws.terminate();
    await waitFor(() => chat.sockets.size === 0, 5000, 'the upstream socket to close');
  });

  it('closes the client when the upstream goes', async () => {
    const client = await open(wsUrl(harness.base), PUBLIC_ORIGIN, { Cookie: await cookieFor(2) });
    await client.next();
    const [upstream] = chat.sockets;
    upstream.terminate();
    await closed(client.ws);
    expect(client.ws.readyState).toBe(WebSocket.CLOSED);
  });
});

import WebSocket from 'ws';
import { startFakeService, unusedPort, type FakeService } from './support/fake-service';
import { PUBLIC_ORIGIN, startGateway, type Harness } from './support/gateway-harness';
import { REGISTERED_TODAY } from './support/test-services';

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

  it('refuses /ws with 404 while no service declares it (the registry today), even with chat replicas configured', async () => {
    const before = chatA.connections + chatB.connections;
    const today = await startGateway({
      services: REGISTERED_TODAY,
      upstreams: { chat: [chatA.url, chatB.url] },
    });
    try {
      await expect(open(wsUrl(today.base), PUBLIC_ORIGIN)).rejects.toMatchObject({ status: 404 });
      expect(chatA.connections + chatB.connections).toBe(before);
      expect(today.logLines).toContainEqual(
        expect.objectContaining({ msg: 'upgrade', status: 404, service: 'none' }),
      );
    } finally {
      await today.close();
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
});

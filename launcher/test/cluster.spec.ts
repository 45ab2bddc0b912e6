import type { ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { GatewayChatClient } from './support/chat-client';
import { startClusterStack, type ClusterStack, type ReadyBody } from './support/cluster-stack';
import {
  cookieOf,
  freePort,
  jsonRequest,
  listenBacklogOf,
  runTs,
  stopProcess,
  waitFor,
} from './support/processes';

/**
 * `npm run start:cluster` for real: identity with two replicas, each its own OS process, the gateway in
 * front, against this machine's PostgreSQL, NATS and Redis. A second, non-identity service process
 * (test/fixtures/probe-service.ts, the shared guard on NATS and Redis) checks that a suspension made through
 * identity is enforced there on the very next request. Chat runs two replicas: a suspension made through identity
 * reaches both over NATS and Redis and closes the student's sockets. Assessment runs two replicas: parallel
 * submissions for a one-attempt quiz, spread over both, store one result; identity's deletion of the student
 * reaches assessment over NATS and removes it.
 */
jest.setTimeout(240_000);

describe('cluster topology', () => {
  let stack: ClusterStack;
  let probe: ChildProcess | undefined;
  let dataDir: string;
  let gateway: string;
  let probeUrl: string;
  let output: string[];
  let databaseUrl: string;

  beforeAll(async () => {
    stack = await startClusterStack({
      name: 'cluster',
      admin: { email: 'root@district.test', password: 'correct horse battery' },
      env: { IDENTITY_REPLICAS: '2', CHAT_REPLICAS: '2', ASSESSMENT_REPLICAS: '2' },
      ready: ({ services }) =>
        services.identity.available === 2 &&
        services.chat?.available === 2 &&
        services.assessment?.available === 2,
      waitingFor: 'the gateway and two replicas each of identity, chat and assessment',
    });
    ({ gateway, dataDir, output, databaseUrl } = stack);
    const publicKey = await readFile(path.join(dataDir, 'cluster', 'keys', 'session-public.pem'), 'utf8');
    const probePort = await freePort();
    probeUrl = `http://127.0.0.1:${probePort}/api/probe`;
    probe = runTs(
      'launcher/test/fixtures/probe-service.ts',
      {
        DATABASE_URL: databaseUrl,
        NATS_URL: stack.natsUrl,
        PORT: String(probePort),
        AUTH_PUBLIC_KEY: publicKey,
      },
      output,
    );
    await waitFor(
      async () => (await fetch(`http://127.0.0.1:${probePort}/readyz`)).status === 200,
      'the probe service',
      60_000,
      output,
    );
  });

  afterAll(async () => {
    await stopProcess(probe);
    await stack?.stop();
  });

  it('runs two identity replicas behind the gateway, balances across them, and keeps demo shortcuts off', async () => {
    const ready = (await (await fetch(`${gateway}/readyz`)).json()) as ReadyBody;
    expect(ready.services.identity).toEqual({ available: 2, total: 2 });
    // Replica addresses are internal: the metrics (open on loopback) have them, /readyz does not.
    const metrics = await (await fetch(`${gateway}/metrics`)).text();
    const identityReplicas = [
      ...metrics.matchAll(/^gateway_upstream_up\{service="identity",replica="([^"]+)"\} 1$/gm),
    ];
    expect(new Set(identityReplicas.map((m) => m[1])).size).toBe(2);
    for (let i = 0; i < 6; i++) expect((await fetch(`${gateway}/api/auth/me`)).status).toBe(401);
    expect(
      (await fetch(`${gateway}/api/auth/quick-login`, jsonRequest(gateway, 'POST', { type: 'teacher' })))
        .status,
    ).toBe(404);
  });

  it('queues a surge of connections on the gateway and on every replica (LISTEN_BACKLOG, 4096 by default)', async () => {
    // A chat replica dies and its clients all reconnect at once: with Node's 511 the survivors' queues overflowed.
    const metrics = await (await fetch(`${gateway}/metrics`)).text();
    // Every replica the gateway knows, up or not: on a loaded machine a replica can miss a health check for a
    // moment, and its listening socket is what is checked here, not its health.
    const replicas = [
      ...metrics.matchAll(/^gateway_upstream_up\{service="[a-z0-9]+",replica="([^"]+)"\} [01]$/gm),
    ].map((m) => Number(new URL(m[1]).port));
    expect(replicas.length).toBeGreaterThanOrEqual(8);
    for (const port of [Number(new URL(gateway).port), ...replicas]) {
      const { backlog, somaxconn } = listenBacklogOf(port);
      expect({ port, backlog }).toEqual({ port, backlog: Math.min(4096, somaxconn) });
    }
  });

  it('signs the bootstrap admin in and refuses a suspended user in another service on the very next request', async () => {
    const admin = await fetch(
      `${gateway}/api/auth/login`,
      jsonRequest(gateway, 'POST', { email: 'root@district.test', password: 'correct horse battery' }),
    );
    expect(admin.status).toBe(200);
    const adminCookie = cookieOf(admin);

    const register = await fetch(
      `${gateway}/api/auth/register`,
      jsonRequest(gateway, 'POST', {
        name: 'Casey Cluster',
        username: 'casey',
        email: 'casey@district.test',
        password: 'secret-pass',
        role: 'student',
      }),
    );
    expect(register.status).toBe(201);
    const student = (await register.json()) as { id: string; approved: boolean };
    expect(student.approved).toBe(false);
    // Unapproved: the probe's approval guard refuses.
    expect((await fetch(probeUrl, { headers: { cookie: cookieOf(register) } })).status).toBe(403);

    expect(
      (
        await fetch(
          `${gateway}/api/users/${student.id}/approval`,
          jsonRequest(gateway, 'PATCH', { approved: true }, adminCookie),
        )
      ).status,
    ).toBe(200);
    const login = await fetch(
      `${gateway}/api/auth/login`,
      jsonRequest(gateway, 'POST', { email: 'casey@district.test', password: 'secret-pass' }),
    );
    const studentCookie = cookieOf(login);
    expect((await fetch(probeUrl, { headers: { cookie: studentCookie } })).status).toBe(200);

    // Suspend through one identity replica; the very next request to the other service is refused.
    expect(
      (
        await fetch(
          `${gateway}/api/users/${student.id}/approval`,
          jsonRequest(gateway, 'PATCH', { approved: false }, adminCookie),
        )
      ).status,
    ).toBe(200);
    const refused = await fetch(probeUrl, { headers: { cookie: studentCookie } });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ message: 'Authentication Required' });
  });
  it('carries chat between replicas and closes a suspended student’s sockets on both, told over NATS', async () => {
    const admin = await fetch(
      `${gateway}/api/auth/login`,
      jsonRequest(gateway, 'POST', { email: 'root@district.test', password: 'correct horse battery' }),
    );
    const adminCookie = cookieOf(admin);
    const register = await fetch(
      `${gateway}/api/auth/register`,
      jsonRequest(gateway, 'POST', {
        name: 'Sam Socket',
        username: 'sam',
        email: 'sam@district.test',
        password: 'secret-pass',
        role: 'student',
      }),
    );
    const student = (await register.json()) as { id: string };
    expect(
      (
        await fetch(
          `${gateway}/api/users/${student.id}/approval`,
          jsonRequest(gateway, 'PATCH', { approved: true }, adminCookie),
        )
      ).status,
    ).toBe(200);
    const studentCookie = cookieOf(
      await fetch(
        `${gateway}/api/auth/login`,
        jsonRequest(gateway, 'POST', { email: 'sam@district.test', password: 'secret-pass' }),
      ),
    );
    const created = await fetch(
      `${gateway}/api/admin/chatrooms`,
      jsonRequest(gateway, 'POST', { name: 'Cluster room', invitedUserIds: [student.id] }, adminCookie),
    );
    expect(created.status).toBe(201);
    const room = (await created.json()) as { id: string };

    // The student's two sockets, one on each chat replica (at its own address, as the gateway would reach it);
    // the teacher's two through the gateway.
    const chatReplicas = await replicasOf(gateway, 'chat');
    expect(chatReplicas).toHaveLength(2);
    const before = await Promise.all(chatReplicas.map(chatConnections));
    const teacherSockets = await Promise.all([0, 1].map(() => GatewayChatClient.open(gateway, adminCookie)));
    const studentSockets = await Promise.all(
      chatReplicas.map((replica) => GatewayChatClient.open(gateway, studentCookie, replica)),
    );
    try {
      // Each replica holds a student socket (and the gateway's two teacher sockets are somewhere among them).
      const after = await Promise.all(chatReplicas.map(chatConnections));
      for (const [i, n] of after.entries()) expect(n - before[i]).toBeGreaterThanOrEqual(1);
      expect(after[0] + after[1] - before[0] - before[1]).toBe(4);
      for (const [i, s] of [...teacherSockets, ...studentSockets].entries()) {
        s.send({ type: 'join', name: `P${i}`, role: 'student', chatroom: room.id });
        await s.next((e) => e.type === 'joined', `join ${i}`);
      }
      // Sent on the first replica, heard on the second.
      studentSockets[0].send({ type: 'message', text: '¡Hola a todos!', chatroom: room.id });
      for (const s of [...teacherSockets, studentSockets[1]])
        expect(await s.next((e) => e.type === 'message', 'the message')).toMatchObject({
          seq: 1,
          name: 'P2',
          role: 'student',
          text: '¡Hola a todos!',
        });
      // An upgrade from another site is refused by the gateway; one without a session too.
      await expect(
        GatewayChatClient.open('http://127.0.0.1:1', studentCookie).catch(() => 'refused'),
      ).resolves.toBe('refused');

      const suspended = Date.now();
      expect(
        (
          await fetch(
            `${gateway}/api/users/${student.id}/approval`,
            jsonRequest(gateway, 'PATCH', { approved: false }, adminCookie),
          )
        ).status,
      ).toBe(200);
      for (const s of studentSockets) expect(await s.closedWithin(3000)).toBe(4401);
      const took = Date.now() - suspended;
      // identity's outbox relays on its own schedule; the bound is 1 s from the event.
      expect(took).toBeLessThan(3000);
      for (const s of teacherSockets) expect(s.closed).toBeNull();
      await expect(GatewayChatClient.open(gateway, studentCookie)).rejects.toMatchObject({ status: 401 });
    } finally {
      for (const s of [...teacherSockets, ...studentSockets]) s.close();
    }
  });
  it('closes a signed-out session’s chat sockets on both replicas within 1 s of the sign-out, told over NATS', async () => {
    const adminCookie = cookieOf(
      await fetch(
        `${gateway}/api/auth/login`,
        jsonRequest(gateway, 'POST', { email: 'root@district.test', password: 'correct horse battery' }),
      ),
    );
    const register = await fetch(
      `${gateway}/api/auth/register`,
      jsonRequest(gateway, 'POST', {
        name: 'Robin Tabs',
        username: 'robin',
        email: 'robin@district.test',
        password: 'secret-pass',
        role: 'student',
      }),
    );
    const student = (await register.json()) as { id: string };
    expect(
      (
        await fetch(
          `${gateway}/api/users/${student.id}/approval`,
          jsonRequest(gateway, 'PATCH', { approved: true }, adminCookie),
        )
      ).status,
    ).toBe(200);
    const signIn = async () =>
      cookieOf(
        await fetch(
          `${gateway}/api/auth/login`,
          jsonRequest(gateway, 'POST', { email: 'robin@district.test', password: 'secret-pass' }),
        ),
      );
    // Two sessions of one person: a laptop signing out, a tablet staying.
    const laptop = await signIn();
    const tablet = await signIn();
    const chatReplicas = await replicasOf(gateway, 'chat');
    expect(chatReplicas).toHaveLength(2);
    const signingOut = await Promise.all(
      chatReplicas.map((replica) => GatewayChatClient.open(gateway, laptop, replica)),
    );
    const staying = await GatewayChatClient.open(gateway, tablet);
    try {
      const started = Date.now();
      const logout = await fetch(`${gateway}/api/auth/logout`, jsonRequest(gateway, 'POST', {}, laptop));
      expect(logout.status).toBeLessThan(300);
      for (const s of signingOut) expect(await s.closedWithin(1000)).toBe(4401);
      const took = Date.now() - started;
      console.info(`sign-out to both chat replicas' sockets closed: ${took} ms`);
      expect(took).toBeLessThan(1000);
      await new Promise((r) => setTimeout(r, 300));
      expect(staying.closed).toBeNull();
    } finally {
      for (const s of [...signingOut, staying]) s.close();
    }
  });

  it('stores one result for a one-attempt quiz under 20 parallel submissions over two replicas, and drops it when identity deletes the student', async () => {
    const admin = await fetch(
      `${gateway}/api/auth/login`,
      jsonRequest(gateway, 'POST', { email: 'root@district.test', password: 'correct horse battery' }),
    );
    const adminCookie = cookieOf(admin);
    const register = await fetch(
      `${gateway}/api/auth/register`,
      jsonRequest(gateway, 'POST', {
        name: 'Quinn Quiz',
        username: 'quinn',
        email: 'quinn@district.test',
        password: 'secret-pass',
        role: 'student',
      }),
    );
    const student = (await register.json()) as { id: string };
    const studentCookie = cookieOf(
      await fetch(
        `${gateway}/api/auth/login`,
        jsonRequest(gateway, 'POST', { email: 'quinn@district.test', password: 'secret-pass' }),
      ),
    );
    const created = await fetch(
      `${gateway}/api/text-quizzes`,
      jsonRequest(
        gateway,
        'POST',
        {
          title: 'Una vez',
          maxAttempts: 1,
          questions: [{ question: 'sí', options: ['yes', 'no', 'maybe', 'never'], correctAnswer: 0 }],
        },
        adminCookie,
      ),
    );
    expect(created.status).toBe(201);
    const quiz = (await created.json()) as { id: string };

    const statuses = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(
          `${gateway}/api/text-quiz-grades`,
          jsonRequest(gateway, 'POST', { quizId: quiz.id, userAnswers: [0] }, studentCookie),
        ).then((r) => r.status),
      ),
    );
    expect(statuses.sort()).toEqual([201, ...Array.from({ length: 19 }, () => 409)]);
    const grades = async () =>
      (await (
        await fetch(`${gateway}/api/text-quiz-grades?userId=${student.id}`, {
          headers: { cookie: adminCookie },
        })
      ).json()) as unknown[];
    expect(await grades()).toHaveLength(1);

    expect(
      (
        await fetch(`${gateway}/api/users/${student.id}`, {
          method: 'DELETE',
          headers: { origin: gateway, cookie: adminCookie },
        })
      ).status,
    ).toBe(204);
    await waitFor(
      async () => (await grades()).length === 0,
      'the deleted student’s result removed by assessment',
      10_000,
      output,
    );
  });
});

/** The replicas of `service` the gateway routes to (their own addresses, from the gateway's metrics). */
async function replicasOf(gateway: string, service: string): Promise<string[]> {
  const metrics = await (await fetch(`${gateway}/metrics`)).text();
  const pattern = new RegExp(`^gateway_upstream_up\\{service="${service}",replica="([^"]+)"\\} 1$`, 'gm');
  return [...metrics.matchAll(pattern)].map((m) => m[1]).sort();
}

/** The open chat sockets a chat replica counts (its own /metrics, open on loopback). */
async function chatConnections(replica: string): Promise<number> {
  const metrics = await (await fetch(`${replica}/metrics`)).text();
  return Number(/^chat_connections(?:\{[^}]*\})? (\d+)$/m.exec(metrics)?.[1] ?? NaN);
}

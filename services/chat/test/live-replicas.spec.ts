import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import {
  CHAT_RATE_MESSAGES,
  ChatCloseCodes,
  ChatLiveMessages,
  Subjects,
  chatRosterDigestOf,
  type Chatroom,
} from '@district/contracts';
import { RedisEphemeralStore, RedisPubSub, SessionStateStore, TokenService } from '@district/nest-common';
import {
  REDIS_URL,
  uniqueToken,
  waitFor,
  type HttpClient,
  type Persona,
} from '@district/nest-common/testing';
import { ChatHub } from '../src/live/chat-hub';
import { LiveKeys } from '../src/live-channels';
import { createRoom, startChat, type ChatTestApp } from './support/chat-app';
import { ChatSocket } from './support/chat-socket';

/**
 * Two chat replicas as in the cluster: one database schema, and each its own connections to one real Redis
 * (pub/sub for the fan-out, the store for names, mutes and sessions) under a prefix of this run.
 */
const prefix = `chat-test:${uniqueToken()}:`;
const HEARTBEAT_MS = 200;
let one: ChatTestApp;
let two: ChatTestApp;
let admin: HttpClient;
const sockets: ChatSocket[] = [];

function redisAdapters() {
  return {
    pubsub: new RedisPubSub(REDIS_URL, { prefix }),
    store: new RedisEphemeralStore(REDIS_URL, { prefix }),
  };
}

beforeAll(async () => {
  const env = { CHAT_HEARTBEAT_MS: String(HEARTBEAT_MS) };
  const first = redisAdapters();
  one = await startChat({ env, runtime: first });
  two = await startChat({ env, schema: one.schema, runtime: { ...redisAdapters(), keys: one.runtime.keys } });
  admin = (await one.signIn('admin')).client;
});
afterEach(() => {
  for (const s of sockets.splice(0)) s.close();
});
afterAll(async () => {
  await two?.close();
  await one?.close();
  for (const app of [one, two]) {
    await app?.runtime.pubsub.close();
    await app?.runtime.store.close();
  }
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

/** A person signed in (or `id`: the same person again, on a new session). */
async function person(persona: Persona, id?: string) {
  const { client, person: p } = await one.signIn(persona, id === undefined ? {} : { id });
  const cookie = client.jar.header(new URL(one.runtime.publicUrl)) as string;
  const claims = await new TokenService(one.runtime.keys).verify(
    /district_session=([^;]+)/.exec(cookie)?.[1],
  );
  return { id: p.id, cookie, sid: claims?.sid ?? '' };
}

async function open(app: ChatTestApp, cookie: string): Promise<ChatSocket> {
  const s = await ChatSocket.open(app.url, { cookie });
  sockets.push(s);
  return s;
}

function room(invitedUserIds: string[]): Promise<Chatroom> {
  return createRoom(admin, invitedUserIds, `Replicas ${randomUUID().slice(0, 8)}`);
}

/** Ana (a student) on replica one and Profe (a teacher) on replica two, both joined to a room Ana is invited to. */
async function anaOnOneProfeOnTwo() {
  const a = await person('student');
  const t = await person('teacher');
  const r = await room([a.id]);
  const sa = await open(one, a.cookie);
  const st = await open(two, t.cookie);
  const joined = await sa.join(r.id, 'Ana');
  const joinedT = await st.join(r.id, 'Profe');
  return { a, r, sa, st, joined, joinedT };
}

/**
 * A third replica that a test kills: Ana (a) joined there, Beto (b) watching from replica one, both invited to r.
 * What is left of the third replica is closed after.
 */
async function onDoomedReplica(
  test: (t: {
    third: ChatTestApp;
    a: Awaited<ReturnType<typeof person>>;
    b: Awaited<ReturnType<typeof person>>;
    r: Chatroom;
    watcher: ChatSocket;
    doomed: ChatSocket;
    joined: Record<string, unknown>;
  }) => Promise<void>,
): Promise<void> {
  const third = await startChat({
    env: { CHAT_HEARTBEAT_MS: String(HEARTBEAT_MS) },
    schema: one.schema,
    runtime: { ...redisAdapters(), keys: one.runtime.keys },
  });
  try {
    const a = await person('student');
    const b = await person('student');
    const r = await room([a.id, b.id]);
    const watcher = await open(one, b.cookie);
    await watcher.join(r.id, 'Beto');
    const doomed = await ChatSocket.open(third.url, { cookie: a.cookie });
    const joined = await doomed.join(r.id, 'Ana');
    await test({ third, a, b, r, watcher, doomed, joined });
  } finally {
    await third.close();
    await third.runtime.pubsub.close();
    await third.runtime.store.close();
  }
}

/** A SIGKILL as the others see it: the replica's heartbeat stops and it releases nothing. */
function killQuietly(app: ChatTestApp): void {
  (app.service.app.get(ChatHub) as unknown as { timers: NodeJS.Timeout[] }).timers.forEach(clearInterval);
  app.runtime.store.releaseSeat = async () => false;
}

describe('two chat replicas over Redis', () => {
  it('deliver a message sent on one to the clients on the other, in one numbering', async () => {
    const a = await person('student');
    const b = await person('student');
    const r = await room([a.id, b.id]);
    const sa = await open(one, a.cookie);
    const sb = await open(two, b.cookie);
    await sa.join(r.id, 'Ana');
    await sb.join(r.id, 'Beto');
    expect(await sa.type('user_joined')).toMatchObject({ name: 'Beto' });
    sa.send({ type: 'message', text: 'desde uno', chatroom: r.id });
    expect(await sb.type('message')).toMatchObject({ seq: 1, name: 'Ana', text: 'desde uno' });
    sb.send({ type: 'message', text: 'desde dos', chatroom: r.id });
    expect(await sa.type('message')).toMatchObject({ seq: 1, text: 'desde uno' });
    expect(await sa.type('message')).toMatchObject({ seq: 2, name: 'Beto', text: 'desde dos' });
  });

  it('keep every client in the same order, without gaps or duplicates, when both replicas send at once', async () => {
    const people = await Promise.all(
      ['teacher', 'teacher', 'teacher', 'teacher'].map((p) => person(p as Persona)),
    );
    const r = await room([]);
    const clients = await Promise.all(people.map((p, i) => open(i % 2 ? two : one, p.cookie)));
    for (const [i, c] of clients.entries()) await c.join(r.id, `T${i}`);
    // 4 senders × 5 messages (the rate limit), interleaved across the replicas.
    for (let n = 0; n < 5; n++)
      for (const [i, c] of clients.entries()) c.send({ type: 'message', text: `${i}:${n}`, chatroom: r.id });
    const seen = await Promise.all(
      clients.map(async (c) => {
        const got: { seq: number; text: string }[] = [];
        for (let k = 0; k < 20; k++)
          got.push((await c.type('message')) as unknown as { seq: number; text: string });
        return got;
      }),
    );
    for (const got of seen) {
      expect(got.map((m) => m.seq)).toEqual(Array.from({ length: 20 }, (_, k) => k + 1));
      expect(got).toEqual(seen[0]);
    }
    // Each sender's own messages keep their order.
    for (let i = 0; i < 4; i++)
      expect(seen[0].filter((m) => m.text.startsWith(`${i}:`)).map((m) => m.text)).toEqual(
        [0, 1, 2, 3, 4].map((n) => `${i}:${n}`),
      );
  });

  it('answer a join with everyone in the room on both replicas, kept from presence events rather than read per join', async () => {
    const people = await Promise.all(['student', 'student', 'teacher'].map((p) => person(p as Persona)));
    const r = await room(people.map((p) => p.id));
    const names = (joined: Record<string, unknown>) =>
      (joined.participants as { name: string }[]).map((p) => p.name).sort();
    const s1 = await open(one, people[0].cookie);
    expect(names(await s1.join(r.id, 'Uno'))).toEqual(['Uno']);
    const s2 = await open(two, people[1].cookie);
    expect(names(await s2.join(r.id, 'Dos'))).toEqual(['Dos', 'Uno']);
    await s1.type('user_joined');

    // Replica one has the room open: its next join reads no seat from the store.
    const store = one.service.app.get(ChatHub)['store'] as { seats: (key: string) => Promise<unknown> };
    const seats = jest.spyOn(store, 'seats');
    try {
      const s3 = await open(one, people[2].cookie);
      expect(names(await s3.join(r.id, 'Tres'))).toEqual(['Dos', 'Tres', 'Uno']);
      expect(seats.mock.calls.filter(([key]) => key === LiveKeys.names(r.id))).toHaveLength(0);

      // Dos leaves on replica two: replica one's roster hears it.
      s2.send({ type: 'leave', chatroom: r.id });
      await s3.next((e) => e.type === 'user_left' && e.name === 'Dos', 'Dos left');
      s3.send({ type: 'leave', chatroom: r.id });
      await s1.next((e) => e.type === 'user_left' && e.name === 'Tres', 'Tres left');
      expect(names(await s3.join(r.id, 'Tres'))).toEqual(['Tres', 'Uno']);
    } finally {
      seats.mockRestore();
    }
  });

  it('answer a rejoin without the participants when its roster digest says the client shows them already', async () => {
    const { a, r, sa, st, joined: first, joinedT } = await anaOnOneProfeOnTwo();
    // Both replicas compute the same digest of the same people, from rosters kept apart.
    expect(joinedT.roster).toBe(chatRosterDigestOf(joinedT.participants as { name: string; role: string }[]));
    await sa.next((e) => e.type === 'user_joined' && e.name === 'Profe', 'Profe joined');
    const shown = [
      ...(first.participants as { name: string; role: string }[]),
      { name: 'Profe', role: 'teacher' },
    ];
    expect(chatRosterDigestOf(shown)).toBe(joinedT.roster);

    // Ana's connection drops; she rejoins on the other replica with the digest of what her screen shows.
    sa.ws.terminate();
    const back = await open(two, a.cookie);
    const rejoined = await back.join(r.id, 'Ana', {
      since: 0,
      resume: first.resume,
      roster: chatRosterDigestOf(shown),
    });
    expect(rejoined).toMatchObject({ type: 'joined', name: 'Ana', roster: joinedT.roster });
    expect(rejoined.participants).toBeUndefined();

    // Someone left while she was away: her digest is stale, and the list comes.
    back.ws.terminate();
    st.send({ type: 'leave', chatroom: r.id });
    await waitFor(
      async () => (await one.runtime.store.seats(LiveKeys.names(r.id))).every((x) => x.seat !== 'profe'),
      'Profe gone',
    );
    const again = await open(one, a.cookie);
    const fresh = await again.join(r.id, 'Ana', {
      since: 0,
      resume: rejoined.resume,
      roster: chatRosterDigestOf(shown),
    });
    expect(fresh.participants).toEqual([{ name: 'Ana', role: 'student' }]);
    expect(fresh.roster).toBe(chatRosterDigestOf([{ name: 'Ana', role: 'student' }]));
  });

  it('refuse on one replica a name taken on the other', async () => {
    const a = await person('student');
    const b = await person('student');
    const r = await room([a.id, b.id]);
    await (await open(one, a.cookie)).join(r.id, 'Lola');
    expect(await (await open(two, b.cookie)).join(r.id, 'LOLA')).toMatchObject({
      type: 'join_rejected',
      reason: 'name_taken',
    });
  });

  it('let a client that lost one replica rejoin on the other, catch up without a gap and keep its name', async () => {
    const { a, r, sa, st, joined } = await anaOnOneProfeOnTwo();
    st.send({ type: 'message', text: 'uno', chatroom: r.id });
    expect(await sa.type('message')).toMatchObject({ seq: 1 });
    sa.ws.terminate();
    st.send({ type: 'message', text: 'dos', chatroom: r.id });
    st.send({ type: 'message', text: 'tres', chatroom: r.id });
    await st.next((e) => e.type === 'message' && e.text === 'tres', 'tres');
    const back = await open(two, a.cookie);
    expect(await back.join(r.id, 'Ana', { since: 1, resume: joined.resume })).toMatchObject({
      type: 'joined',
      seq: 3,
    });
    expect([(await back.type('message')).text, (await back.type('message')).text]).toEqual(['dos', 'tres']);
  });

  it('take a message sent again with the same ref on the other replica once, answering the repeat with its number', async () => {
    const { a, r, sa, st, joined } = await anaOnOneProfeOnTwo();
    // Ana's message is appended, but her connection drops before she hears it back: she cannot tell.
    sa.send({ type: 'message', text: 'hola', chatroom: r.id, ref: 'ana-ref-0001' });
    expect(await st.type('message')).toMatchObject({ seq: 1, text: 'hola', ref: 'ana-ref-0001' });
    sa.ws.terminate();
    const back = await open(two, a.cookie);
    await back.join(r.id, 'Ana', { since: 0, resume: joined.resume });
    // Her client sends what it never heard back, with the same ref: the room does not get it twice.
    back.send({ type: 'message', text: 'hola', chatroom: r.id, ref: 'ana-ref-0001' });
    expect(await back.type('sent')).toEqual({ type: 'sent', chatroom: r.id, ref: 'ana-ref-0001', seq: 1 });
    // A new ref is a new message; another person's same ref is theirs.
    back.send({ type: 'message', text: 'otra', chatroom: r.id, ref: 'ana-ref-0002' });
    st.send({ type: 'message', text: 'mía', chatroom: r.id, ref: 'ana-ref-0001' });
    expect(await st.type('message')).toMatchObject({ seq: 2, text: 'otra' });
    expect(await st.type('message')).toMatchObject({ seq: 3, text: 'mía', name: 'Profe' });
    await st.quietFor(200, (e) => e.type === 'message');
  });

  it('free the names of a replica that died (no goodbye), and tell the room', () =>
    onDoomedReplica(async ({ third, b, r, watcher, doomed }) => {
      expect(await (await open(two, b.cookie)).join(r.id, 'Ana')).toMatchObject({ reason: 'name_taken' });
      killQuietly(third);
      const died = Date.now();
      expect(
        await watcher.next((e) => e.type === 'user_left' && e.name === 'Ana', 'user_left of Ana', 5000),
      ).toBeDefined();
      expect(Date.now() - died).toBeLessThan(HEARTBEAT_MS * 6);
      expect(await (await open(two, b.cookie)).join(r.id, 'Ana')).toMatchObject({ type: 'joined' });
      doomed.ws.terminate();
    }));

  it('let a client whose replica died take its name back on another without the room hearing it arrive again', () =>
    onDoomedReplica(async ({ third, a, b, r, watcher, doomed, joined }) => {
      await watcher.next((e) => e.type === 'user_joined' && e.name === 'Ana', 'Ana joined');
      // Ana's client reconnects to another replica at once.
      killQuietly(third);
      doomed.ws.terminate();
      const back = await open(two, a.cookie);
      const rejoined = await back.join(r.id, 'Ana', { resume: joined.resume });
      expect(rejoined).toMatchObject({ type: 'joined', name: 'Ana' });
      expect((rejoined.participants as { name: string }[]).map((p) => p.name).sort()).toEqual([
        'Ana',
        'Beto',
      ]);
      // Nobody is told Ana arrived (she never left), nor, once the dead replica's heartbeat has run out, that she left.
      await watcher.quietFor(HEARTBEAT_MS * 6, (e) => e.type === 'user_joined' || e.type === 'user_left');
      // Her name is hers still, now held by a live replica.
      expect(await (await open(one, b.cookie)).join(r.id, 'ana')).toMatchObject({ reason: 'name_taken' });
    }));

  it('give an account one message budget across its sockets on both replicas', async () => {
    const a = await person('student');
    const t = await person('teacher');
    const r = await room([a.id]);
    const watcher = await open(one, t.cookie);
    await watcher.join(r.id, 'Profe');
    const tabs = [await open(one, a.cookie), await open(two, a.cookie)];
    await tabs[0].join(r.id, 'Ana');
    await tabs[1].join(r.id, 'Ana 2');
    for (let i = 0; i < 4; i++)
      for (const [k, s] of tabs.entries()) s.send({ type: 'message', text: `${k}:${i}`, chatroom: r.id });
    const limitedOn = (s: ChatSocket) =>
      s.events.filter((e) => e.type === 'notice' && e.code === 'rate_limited');
    await waitFor(async () => tabs.flatMap(limitedOn).length === 8 - CHAT_RATE_MESSAGES, 'the refusals');
    await watcher.quietFor(300, () => false);
    expect(watcher.events.filter((e) => e.type === 'message')).toHaveLength(CHAT_RATE_MESSAGES);
    for (const n of tabs.flatMap(limitedOn))
      expect(n).toMatchObject({ text: ChatLiveMessages.rateLimited, retryAfterMs: expect.any(Number) });
  });

  it('cap an account’s sockets over both replicas, and give a stopped replica’s places back', async () => {
    const a = await person('student');
    const max = 5;
    const opened = await Promise.all(Array.from({ length: 40 }, (_, i) => open(i % 2 ? two : one, a.cookie)));
    await new Promise((r) => setTimeout(r, 1000));
    const kept = opened.filter((s) => !s.closed);
    expect(kept.length).toBeLessThanOrEqual(max);
    for (const s of opened.filter((x) => x.closed))
      expect(s.closed?.code).toBe(ChatCloseCodes.tooManyConnections);
    for (const s of kept) s.close();
    await Promise.all(kept.map((s) => s.closedWith()));
    // Three on one, two on two: the next is refused on either.
    const tabs = [];
    for (let i = 0; i < max; i++) tabs.push(await open(i < 3 ? one : two, a.cookie));
    await new Promise((r) => setTimeout(r, 300));
    expect(tabs.every((s) => !s.closed)).toBe(true);
    for (const app of [one, two])
      expect((await (await open(app, a.cookie)).closedWith()).code).toBe(ChatCloseCodes.tooManyConnections);
    // A third replica stopping (a deploy) gives back the places of its sockets at once, so they reconnect elsewhere.
    tabs[0].close();
    await tabs[0].closedWith();
    const third = await startChat({
      env: { CHAT_HEARTBEAT_MS: String(HEARTBEAT_MS) },
      schema: one.schema,
      runtime: { ...redisAdapters(), keys: one.runtime.keys },
    });
    try {
      const onThird = await ChatSocket.open(third.url, { cookie: a.cookie });
      await new Promise((r) => setTimeout(r, 200));
      expect(onThird.closed).toBeNull();
      await third.close();
      expect((await onThird.closedWith()).code).toBe(ChatCloseCodes.serviceRestart);
      const back = await open(two, a.cookie);
      await new Promise((r) => setTimeout(r, 200));
      expect(back.closed).toBeNull();
    } finally {
      await third.runtime.pubsub.close();
      await third.runtime.store.close();
    }
  });

  it('close a signed-out session’s sockets on every replica within 1 s of identity.session.ended on one', async () => {
    const first = await person('student');
    const second = await person('student', first.id);
    const r = await room([first.id]);
    const signedOut = [await open(one, first.cookie), await open(two, first.cookie)];
    const stays = await open(two, second.cookie);
    await signedOut[0].join(r.id, 'Ana');
    await signedOut[1].join(r.id, 'Ana 2');
    await stays.join(r.id, 'Ana 3');
    await new SessionStateStore(one.runtime.store).revokeSession(first.sid, Date.now() + 3_600_000);
    const started = Date.now();
    await one.runtime.bus.publish(Subjects.identitySessionEnded, { userId: first.id, sessionId: first.sid });
    for (const s of signedOut) expect((await s.closedWith(1000)).code).toBe(ChatCloseCodes.sessionChanged);
    const took = Date.now() - started;
    expect(took).toBeLessThan(1000);
    console.info(`sign-out closed the session's sockets on both replicas in ${took} ms`);
    await stays.quietFor(200, (e) => e.type === 'notice');
    expect(stays.closed).toBeNull();
  });

  it('close a suspended user’s sockets on every replica within 1 s of the identity event on one', async () => {
    const a = await person('student');
    const r = await room([a.id]);
    const on1 = await open(one, a.cookie);
    const on2 = await open(two, a.cookie);
    await on1.join(r.id, 'Ana');
    await on2.join(r.id, 'Ana 2');
    await new SessionStateStore(one.runtime.store).setVersion(a.id, 2);
    const started = Date.now();
    await one.runtime.bus.publish(Subjects.identityUserUpdated, {
      user: {
        id: a.id,
        name: 'Ana',
        username: 'ana',
        email: 'a@school.test',
        role: 'student',
        approved: false,
        isAdmin: false,
        profileImage: null,
        createdAt: new Date().toISOString(),
      },
      tokenVersion: 2,
      changed: ['approval'],
    });
    expect((await on1.closedWith(1000)).code).toBe(ChatCloseCodes.sessionChanged);
    expect((await on2.closedWith(1000)).code).toBe(ChatCloseCodes.sessionChanged);
    expect(Date.now() - started).toBeLessThan(1000);
    // Their names come free as the replicas see the sockets go.
    await waitFor(
      async () => (await one.runtime.store.seats(LiveKeys.names(r.id))).length === 0,
      'names freed',
    );
  });
});

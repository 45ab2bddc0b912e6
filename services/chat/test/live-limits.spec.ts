import {
  CHAT_PRESENCE_BURST,
  CHAT_RATE_MESSAGES,
  CHAT_SOCKETS_PER_ACCOUNT_DEFAULT,
  ChatCloseCodes,
  ChatLiveMessages,
  Subjects,
} from '@district/contracts';
import { SessionStateStore } from '@district/nest-common';
import { waitFor } from '@district/nest-common/testing';
import type { ChatTestApp } from './support/chat-app';
import type { AnyEvent, ChatSocket } from './support/chat-socket';
import { liveBench } from './support/live-bench';

/** Issue #34 items 1, 2 and 4: what one account can do to a room, whatever number of sockets it opens. */
const live = liveBench();
const { person, open, room } = live;
let app: ChatTestApp;
beforeAll(() => {
  ({ app } = live);
});

const lines = (s: ChatSocket, type: 'user_joined' | 'user_left', name: string) =>
  s.events.filter((e) => e.type === type && e.name === name && e.quiet !== true);

describe('sockets per account', () => {
  it('closes every socket past the cap with 4429 and says why, whatever number are opened at once', async () => {
    const a = await person('student');
    const opened = await Promise.all(Array.from({ length: 100 }, () => open(a.cookie)));
    await new Promise((r) => setTimeout(r, 1500));
    const closed = opened.filter((s) => s.closed);
    const kept = opened.filter((s) => !s.closed);
    expect(kept.length).toBeLessThanOrEqual(CHAT_SOCKETS_PER_ACCOUNT_DEFAULT);
    expect(closed.length).toBeGreaterThanOrEqual(100 - CHAT_SOCKETS_PER_ACCOUNT_DEFAULT);
    for (const s of closed) {
      expect(s.closed).toEqual({ code: ChatCloseCodes.tooManyConnections, reason: 'too_many_connections' });
      expect(s.events).toEqual([
        {
          type: 'notice',
          code: 'too_many_connections',
          text: ChatLiveMessages.tooManyConnections(CHAT_SOCKETS_PER_ACCOUNT_DEFAULT),
        },
      ]);
    }
    // Another account is not counted with it.
    const b = await person('student');
    const other = await open(b.cookie);
    const r = await room([a.id, b.id]);
    expect(await other.join(r.id, 'Beto')).toMatchObject({ type: 'joined' });
    // Up to the cap, one at a time, an account's sockets are all let in; the one after is not; a place freed is taken.
    for (const s of kept) {
      s.close();
      await s.closedWith();
    }
    const tabs: ChatSocket[] = [];
    for (let i = 0; i < CHAT_SOCKETS_PER_ACCOUNT_DEFAULT; i++) {
      tabs.push(await open(a.cookie));
      expect(await tabs[i].join(r.id, `Ana ${i}`)).toMatchObject({ type: 'joined' });
    }
    const extra = await open(a.cookie);
    expect((await extra.closedWith()).code).toBe(ChatCloseCodes.tooManyConnections);
    tabs[0].close();
    await tabs[0].closedWith();
    await new Promise((r) => setTimeout(r, 100));
    expect(await (await open(a.cookie)).join(r.id, 'Ana again')).toMatchObject({ type: 'joined' });
  });
});

describe('messages per account', () => {
  it('share one budget across all the account’s sockets', async () => {
    const a = await person('student');
    const t = await person('teacher');
    const r = await room([a.id]);
    const watcher = await open(t.cookie);
    await watcher.join(r.id, 'Profe');
    const tabs = [await open(a.cookie), await open(a.cookie)];
    await tabs[0].join(r.id, 'Ana');
    await tabs[1].join(r.id, 'Ana 2');
    for (let i = 0; i < 4; i++)
      for (const [k, s] of tabs.entries()) s.send({ type: 'message', text: `${k}:${i}`, chatroom: r.id });
    const limitedOn = (s: ChatSocket) =>
      s.events.filter((e) => e.type === 'notice' && e.code === 'rate_limited');
    await waitFor(async () => tabs.flatMap(limitedOn).length === 8 - CHAT_RATE_MESSAGES, 'the refusals');
    await watcher.quietFor(300, () => false);
    const delivered = watcher.events.filter((e) => e.type === 'message');
    expect(delivered).toHaveLength(CHAT_RATE_MESSAGES);
    const limited = tabs.flatMap(limitedOn);
    expect(limited).toHaveLength(8 - CHAT_RATE_MESSAGES);
    for (const n of limited)
      expect(n).toMatchObject({ text: ChatLiveMessages.rateLimited, retryAfterMs: expect.any(Number) });
  });
});

describe('joins and leaves per account', () => {
  it('refuses a join flood past the budget, and the room sees one line each way, the rest quiet', async () => {
    const a = await person('student');
    const t = await person('teacher');
    const r = await room([a.id]);
    const watcher = await open(t.cookie);
    await watcher.join(r.id, 'Profe');
    const s = await open(a.cookie);
    // Join and leave, again and again: each takes from the account's budget.
    const answers: AnyEvent[] = [];
    for (let i = 0; i < CHAT_PRESENCE_BURST; i++) {
      s.send({ type: 'join', name: 'Flood', role: 'student', chatroom: r.id });
      answers.push(await s.next((e) => e.type === 'joined' || e.type === 'join_rejected', 'join answer'));
      s.send({ type: 'leave', chatroom: r.id });
    }
    s.send({ type: 'join', name: 'Flood', role: 'student', chatroom: r.id });
    const refused = await s.type('join_rejected');
    expect(refused).toMatchObject({ reason: 'rate_limited', text: ChatLiveMessages.joinRateLimited });
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    // Half the budget went on the leaves (each one still done: nobody is kept in a room).
    expect(answers.filter((e) => e.type === 'joined')).toHaveLength(CHAT_PRESENCE_BURST / 2);
    await watcher.quietFor(500, () => false);
    // Every arrival and departure reached the room (its participants are right), one of each as a line.
    expect(watcher.events.filter((e) => e.type === 'user_joined' && e.name === 'Flood')).toHaveLength(
      CHAT_PRESENCE_BURST / 2,
    );
    expect(watcher.events.filter((e) => e.type === 'user_left' && e.name === 'Flood')).toHaveLength(
      CHAT_PRESENCE_BURST / 2,
    );
    expect(lines(watcher, 'user_joined', 'Flood')).toHaveLength(1);
    expect(lines(watcher, 'user_left', 'Flood')).toHaveLength(1);
    // The same budget on another socket of the account.
    const other = await open(a.cookie);
    expect(await other.join(r.id, 'Otra')).toMatchObject({ type: 'join_rejected', reason: 'rate_limited' });
  });

  it('counts joins that change name without leaving, and announces a new person as a line', async () => {
    const a = await person('student');
    const b = await person('student');
    const t = await person('teacher');
    const r = await room([a.id, b.id]);
    const watcher = await open(t.cookie);
    await watcher.join(r.id, 'Profe');
    const s = await open(a.cookie);
    // Name after name, as fast as the socket takes them: the room hears each change, as one line.
    for (let i = 0; i <= CHAT_PRESENCE_BURST; i++)
      s.send({ type: 'join', name: `Name ${i}`, role: 'student', chatroom: r.id });
    const answers: AnyEvent[] = [];
    for (let i = 0; i <= CHAT_PRESENCE_BURST; i++)
      answers.push(await s.next((e) => e.type === 'joined' || e.type === 'join_rejected', 'answer'));
    expect(answers.filter((e) => e.type === 'joined')).toHaveLength(CHAT_PRESENCE_BURST);
    expect(answers[CHAT_PRESENCE_BURST]).toMatchObject({ type: 'join_rejected', reason: 'rate_limited' });
    expect(await (await open(b.cookie)).join(r.id, 'Beto')).toMatchObject({ type: 'joined' });
    await watcher.quietFor(500, () => false);
    const joinedLines = watcher.events
      .filter((e) => e.type === 'user_joined' && e.quiet !== true)
      .map((e) => e.name);
    expect(joinedLines).toEqual(['Name 0', 'Beto']);
    expect(watcher.events.filter((e) => e.type === 'user_joined' && e.quiet === true)).toHaveLength(
      CHAT_PRESENCE_BURST - 1,
    );
  });
});

describe('a muted student', () => {
  it('cannot join under another name while muted, only come back under the one they had', async () => {
    const a = await person('student');
    const t = await person('teacher');
    const r = await room([a.id]);
    const teacher = await open(t.cookie);
    await teacher.join(r.id, 'Profe');
    const s = await open(a.cookie);
    await s.join(r.id, 'Ana');
    await teacher.next((e) => e.type === 'user_joined' && e.name === 'Ana', 'Ana joined');
    teacher.send({ type: 'mute', chatroom: r.id, name: 'Ana', minutes: 5 });
    const muted = await s.type('notice');
    expect(muted).toMatchObject({ code: 'muted' });
    const refusal = {
      type: 'join_rejected',
      reason: 'muted',
      until: muted.until,
      text: ChatLiveMessages.mutedJoin(muted.until as string),
    };
    // Names as a way to post: refused, on this socket and on another of hers.
    for (const name of ['Please unmute me', 'Ana 2', 'Ana is sorry'])
      expect(await s.join(r.id, name)).toMatchObject(refusal);
    const other = await open(a.cookie);
    expect(await other.join(r.id, 'hola a todos')).toMatchObject(refusal);
    // Refused before anything changed: she is still in the room under her name, and nobody heard a thing.
    s.send({ type: 'message', text: 'hi', chatroom: r.id });
    expect(await s.type('notice')).toMatchObject({ code: 'muted' });
    await teacher.quietFor(300, (e) => e.type === 'user_joined' || e.type === 'user_left');
    // A dropped connection: she comes back under her name (still muted).
    s.ws.terminate();
    await teacher.next((e) => e.type === 'user_left' && e.name === 'Ana', 'Ana left');
    expect(await other.join(r.id, 'ANA')).toMatchObject({ type: 'joined', name: 'ANA' });
    other.send({ type: 'message', text: 'hi', chatroom: r.id });
    expect(await other.type('notice')).toMatchObject({ code: 'muted' });
    // Unmuted, any name again.
    teacher.send({ type: 'mute', chatroom: r.id, name: 'Ana', minutes: 0 });
    await other.type('notice');
    expect(await other.join(r.id, 'Ana B')).toMatchObject({ type: 'joined' });
  });
});

describe('signing out', () => {
  it('closes the sockets of that session within 1 s of identity.session.ended, and keeps the person’s others', async () => {
    const first = await person('student');
    const second = await person('student', { id: first.id });
    expect(second.sid).not.toBe(first.sid);
    const r = await room([first.id]);
    const signedOut = [await open(first.cookie), await open(first.cookie)];
    const stays = await open(second.cookie);
    await signedOut[0].join(r.id, 'Ana');
    await stays.join(r.id, 'Ana 2');
    // What identity's sign-out does: the shared state refuses the session, and the event goes out after the commit.
    await new SessionStateStore(app.runtime.store).revokeSession(first.sid, Date.now() + 3_600_000);
    const started = Date.now();
    await app.runtime.bus.publish(Subjects.identitySessionEnded, {
      userId: first.id.toUpperCase(),
      sessionId: first.sid,
    });
    for (const s of signedOut) {
      expect(await s.closedWith(1000)).toEqual({
        code: ChatCloseCodes.sessionChanged,
        reason: 'session_changed',
      });
      expect(s.events).toContainEqual({
        type: 'notice',
        code: 'session_changed',
        text: ChatLiveMessages.sessionChanged,
      });
    }
    const took = Date.now() - started;
    expect(took).toBeLessThan(1000);
    console.info(`sign-out closed the session's sockets in ${took} ms`);
    await stays.quietFor(200, (e) => e.type === 'notice');
    expect(stays.closed).toBeNull();
    expect(await stays.next((e) => e.type === 'user_left' && e.name === 'Ana', 'Ana left')).toBeDefined();
  });
});

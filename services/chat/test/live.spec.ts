import { randomUUID } from 'node:crypto';
import { WebSocket } from 'ws';
import {
  CHAT_FRAME_MAX_BYTES,
  CHAT_MESSAGE_MAX,
  ChatCloseCodes,
  ChatLiveMessages,
  Subjects,
} from '@district/contracts';
import { MAX_SESSION_AGE_SECONDS, SessionStateStore, TokenService } from '@district/nest-common';
import type { HttpClient, Persona, TokenOverrides } from '@district/nest-common/testing';
import { LiveKeys } from '../src/live-channels';
import { startChat, type ChatTestApp } from './support/chat-app';
import { liveBench } from './support/live-bench';
import { ChatSocket } from './support/chat-socket';

const live = liveBench();
const { person, open, room } = live;
let app: ChatTestApp;
let admin: HttpClient;
beforeAll(() => {
  ({ app, admin } = live);
});

describe('the /ws upgrade', () => {
  it('refuses a socket without a valid session, from a foreign origin, or on another path', async () => {
    const student = await person('student');
    await expect(ChatSocket.open(app.url)).rejects.toMatchObject({ status: 401 });
    await expect(
      ChatSocket.open(app.url, { cookie: 'district_session=forged.token.value' }),
    ).rejects.toMatchObject({ status: 401 });
    await expect(
      ChatSocket.open(app.url, { cookie: student.cookie, origin: 'https://evil.example' }),
    ).rejects.toMatchObject({ status: 403 });
    await expect(ChatSocket.open(app.url, { cookie: student.cookie, origin: 'null' })).rejects.toMatchObject({
      status: 403,
    });
    await expect(
      ChatSocket.open(app.url, { cookie: student.cookie, path: '/ws/other' }),
    ).rejects.toMatchObject({ status: 404 });
    // A signed-out (revoked) or outdated session is refused like none.
    const stale = await person('student');
    await new SessionStateStore(app.runtime.store).setVersion(stale.id, 2);
    await expect(ChatSocket.open(app.url, { cookie: stale.cookie })).rejects.toMatchObject({ status: 401 });
    // The right origin (or none, a non-browser client) with a session gets in.
    (await open(student.cookie)).close();
    live.track(await ChatSocket.open(app.url, { cookie: student.cookie, origin: null }));
  });
});

describe('metrics', () => {
  it('count open sockets, rooms with members, accepted messages and deliveries when scraped', async () => {
    const t = await person('teacher');
    const r = await room([]);
    const s = await open(t.cookie);
    await s.join(r.id, 'Profe');
    s.send({ type: 'message', text: 'hola', chatroom: r.id });
    await s.type('message');
    const text = await (await fetch(`${app.url}/metrics`)).text();
    const value = (name: string) => Number(new RegExp(`^${name}\\{[^}]*\\} (\\d+)`, 'm').exec(text)?.[1]);
    expect(value('chat_connections')).toBeGreaterThanOrEqual(1);
    expect(value('chat_rooms_active')).toBeGreaterThanOrEqual(1);
    expect(value('chat_deliveries_total')).toBeGreaterThanOrEqual(2);
    expect(value('chat_messages_total')).toBeGreaterThanOrEqual(1);
  });
});

describe('joining', () => {
  it('lets invited students, teachers and admins in, with the role from their session', async () => {
    const student = await person('student');
    const teacher = await person('teacher');
    const r = await room([student.id]);
    const s = await open(student.cookie);
    // The client claims to be an admin: ignored.
    const joined = await s.join(r.id.toUpperCase(), '  Ana   María ', { role: 'admin' });
    expect(joined).toMatchObject({
      type: 'joined',
      chatroom: r.id,
      name: 'Ana María',
      role: 'student',
      canModerate: false,
      seq: 0,
    });
    expect(joined.participants).toEqual([{ name: 'Ana María', role: 'student' }]);
    const t = await open(teacher.cookie);
    const tj = await t.join(r.id, 'Ms. Ruiz');
    expect(tj).toMatchObject({ role: 'teacher', canModerate: true });
    expect(tj.participants).toEqual(
      expect.arrayContaining([
        { name: 'Ana María', role: 'student' },
        { name: 'Ms. Ruiz', role: 'teacher' },
      ]),
    );
    expect(await s.type('user_joined')).toMatchObject({
      name: 'Ms. Ruiz',
      role: 'teacher',
      chatroom: r.id,
      text: 'Ms. Ruiz joined the chatroom',
    });
  });

  it('refuses people not invited, unknown and inactive rooms, and invalid names', async () => {
    const student = await person('student');
    const pendingTeacher = await person('teacher', { approved: false });
    const suspendedAdmin = await person('admin', { approved: false });
    const r = await room([]);
    const s = await open(student.cookie);
    expect(await s.join(r.id, 'Ana')).toMatchObject({
      type: 'join_rejected',
      reason: 'not_invited',
      text: ChatLiveMessages.notInvited,
    });
    // Only approved accounts get a chatroom: a pending or suspended student, teacher or admin is refused, invited
    // or not (and an unapproved teacher or admin has no moderator rights either).
    const pendingStudent = await person('pending');
    const invited = await room([pendingStudent.id, pendingTeacher.id]);
    for (const who of [pendingStudent, pendingTeacher, suspendedAdmin])
      expect(await (await open(who.cookie)).join(invited.id, 'P')).toMatchObject({
        reason: 'not_approved',
        text: ChatLiveMessages.notApproved,
      });
    expect(await s.join(randomUUID(), 'Ana')).toMatchObject({
      reason: 'no_room',
      text: ChatLiveMessages.roomUnavailable,
    });
    expect(await s.join('../../etc', 'Ana')).toMatchObject({ reason: 'no_room' });
    const closed = await room([student.id]);
    await admin.put(`/api/admin/chatrooms/${closed.id}`, { isActive: false });
    expect(await s.join(closed.id, 'Ana')).toMatchObject({ reason: 'no_room' });
    const open_ = await room([student.id]);
    for (const bad of ['', '   ', '\u202e\u200b', 'x'.repeat(51), 42]) {
      expect(await s.join(open_.id, bad as string)).toMatchObject({
        type: 'join_rejected',
        reason: 'invalid_name',
      });
    }
    expect(await s.join(open_.id, 'é'.repeat(50))).toMatchObject({ type: 'joined' });
  });

  it('keeps names unique per room whatever their case or width, and frees them on leave and disconnect', async () => {
    const a = await person('student');
    const b = await person('student');
    const r = await room([a.id, b.id]);
    const other = await room([a.id, b.id]);
    const sa = await open(a.cookie);
    await sa.join(r.id, 'Lucía');
    const sb = await open(b.cookie);
    // The refusal names the name as the room would have shown it (NFKC: full width to plain letters).
    for (const [clash, shown] of [
      ['Lucía', 'Lucía'],
      ['LUCÍA', 'LUCÍA'],
      ['Ｌｕｃíａ', 'Lucía'],
    ]) {
      expect(await sb.join(r.id, clash)).toMatchObject({
        type: 'join_rejected',
        reason: 'name_taken',
        name: shown,
        text: `Name ${shown} is already taken! Please choose a different name to join this chatroom.`,
      });
    }
    // The same person in a second tab is refused too (spec: the name-clash toast).
    const sa2 = await open(a.cookie);
    expect(await sa2.join(r.id, 'Lucía')).toMatchObject({ reason: 'name_taken' });
    // Another room is another namespace.
    expect(await sb.join(other.id, 'Lucía')).toMatchObject({ type: 'joined' });
    sa.send({ type: 'leave', chatroom: r.id });
    expect(await sb.quietFor(50)).toBeUndefined();
    expect(await sa2.join(r.id, 'Lucía')).toMatchObject({ type: 'joined' });
    sa2.close();
    await sa2.closedWith();
    const sc = await open(b.cookie);
    await waitUntil(async () => (await sc.join(r.id, 'lucía')).type === 'joined');
  });
});

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('look-alike names', () => {
  it('refuses each name that displays as one already taken, and names empty once normalised', async () => {
    const a = await person('student');
    const b = await person('student');
    const r = await room([a.id, b.id]);
    const sa = await open(a.cookie);
    await sa.join(r.id, 'Sam');
    const sb = await open(b.cookie);
    // Soft hyphen, combining grapheme joiner, Cyrillic Dze and a, Hangul filler, Arabic letter mark, "rn" for "m".
    for (const alike of [
      'S\u00ADam',
      'Sam\u034F',
      '\u0405\u0430m',
      '\u3164Sam',
      'S\u061Cam',
      'Sarn',
      'ＳＡＭ',
    ]) {
      const answer = await sb.join(r.id, alike);
      expect({ alike, answer }).toEqual({
        alike,
        answer: expect.objectContaining({ type: 'join_rejected', reason: 'name_taken' }),
      });
    }
    for (const empty of ['\u3164', '\u00AD\u034F', ' \u061C\u200B ']) {
      expect(await sb.join(r.id, empty)).toMatchObject({
        type: 'join_rejected',
        reason: 'invalid_name',
        text: ChatLiveMessages.enterName,
      });
    }
    // Invisible characters are taken out of the name the room sees.
    const joined = await sb.join(r.id, 'Be\u00ADto\u2066');
    expect(joined).toMatchObject({ type: 'joined', name: 'Beto' });
    expect(await sa.type('user_joined')).toMatchObject({ name: 'Beto', text: 'Beto joined the chatroom' });
  });
});

describe('the join rules, person by room', () => {
  // Expected answer of a join per persona: invited to an active room, not invited to one, invited to an inactive one.
  const matrix: [string, Persona, TokenOverrides, string, string, string][] = [
    ['student', 'student', {}, 'joined', 'not_invited', 'no_room'],
    ['pending account', 'pending', {}, 'not_approved', 'not_approved', 'not_approved'],
    ['unapproved teacher', 'teacher', { approved: false }, 'not_approved', 'not_approved', 'not_approved'],
    ['teacher', 'teacher', {}, 'joined', 'joined', 'no_room'],
    ['admin', 'admin', {}, 'joined', 'joined', 'no_room'],
    ['suspended admin', 'admin', { approved: false }, 'not_approved', 'not_approved', 'not_approved'],
  ];
  it.each(matrix)('%s', async (_label, persona, overrides, invited, uninvited, inactive) => {
    const who = await person(persona, overrides);
    const active = await room([who.id]);
    const other = await room([]);
    const closed = await room([who.id]);
    await admin.put(`/api/admin/chatrooms/${closed.id}`, { isActive: false });
    const outcome = async (roomId: string) => {
      const s = await open(who.cookie);
      const e = await s.join(roomId, 'Someone');
      s.close();
      return e.type === 'joined' ? 'joined' : (e.reason as string);
    };
    expect([await outcome(active.id), await outcome(other.id), await outcome(closed.id)]).toEqual([
      invited,
      uninvited,
      inactive,
    ]);
  });
});

describe('messages', () => {
  it('are numbered, trimmed, plain text, and reach everyone in the room (sender included) and nobody else', async () => {
    const a = await person('student');
    const b = await person('student');
    const r = await room([a.id, b.id]);
    const elsewhere = await room([b.id]);
    const sa = await open(a.cookie);
    const sb = await open(b.cookie);
    const outsider = await open(b.cookie);
    await sa.join(r.id, 'Ana');
    await sb.join(r.id, 'Beto');
    await outsider.join(elsewhere.id, 'Beto');
    sa.send({ type: 'message', text: '  ¿Qué tal? <b>hola</b> ', chatroom: r.id });
    const got = await sb.type('message');
    expect(got).toMatchObject({
      type: 'message',
      seq: 1,
      name: 'Ana',
      role: 'student',
      text: '¿Qué tal? <b>hola</b>',
      chatroom: r.id,
    });
    expect(got.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(got.timestamp as string).toISOString()).toBe(got.timestamp);
    expect(await sa.type('message')).toEqual(got);
    sb.send({ type: 'message', text: 'bien', chatroom: r.id });
    expect(await sa.type('message')).toMatchObject({ seq: 2, name: 'Beto', text: 'bien' });
    await outsider.quietFor(100, (e) => e.type === 'message');
  });

  it('refuses empty, too long and foreign-room messages with a notice, and closes on an oversized frame', async () => {
    const a = await person('student');
    const r = await room([a.id]);
    const s = await open(a.cookie);
    s.send({ type: 'message', text: 'too early', chatroom: r.id });
    expect(await s.type('notice')).toMatchObject({ code: 'not_joined', text: ChatLiveMessages.notJoined });
    await s.join(r.id, 'Ana');
    s.send({ type: 'message', text: '   ', chatroom: r.id });
    expect(await s.type('notice')).toMatchObject({ code: 'empty' });
    s.send({ type: 'message', text: 'x'.repeat(CHAT_MESSAGE_MAX + 1), chatroom: r.id });
    expect(await s.type('notice')).toMatchObject({ code: 'too_long', text: ChatLiveMessages.messageTooLong });
    s.send({ type: 'message', text: 'hi', chatroom: randomUUID() });
    expect(await s.type('notice')).toMatchObject({ code: 'not_joined' });
    s.send('not json');
    expect(await s.type('notice')).toMatchObject({ code: 'invalid' });
    s.send({ type: 'shout' });
    expect(await s.type('notice')).toMatchObject({ code: 'invalid', text: ChatLiveMessages.unknownRequest });
    s.send({ type: 'message', text: 'x'.repeat(CHAT_MESSAGE_MAX), chatroom: r.id });
    expect(await s.type('message')).toMatchObject({ seq: 1 });
    s.send('x'.repeat(CHAT_FRAME_MAX_BYTES + 1));
    expect((await s.closedWith()).code).toBe(ChatCloseCodes.tooBig);
  });

  it('limits each connection to 5 messages in 5 s with a notice, keeping the socket', async () => {
    const a = await person('student');
    const r = await room([a.id]);
    const s = await open(a.cookie);
    await s.join(r.id, 'Ana');
    for (let i = 0; i < 7; i++) s.send({ type: 'message', text: `m${i}`, chatroom: r.id });
    for (let i = 0; i < 5; i++) expect(await s.type('message')).toMatchObject({ text: `m${i}` });
    const limited = await s.type('notice');
    expect(limited).toMatchObject({ code: 'rate_limited', text: ChatLiveMessages.rateLimited });
    expect(limited.retryAfterMs).toBeGreaterThan(0);
    expect(await s.type('notice')).toMatchObject({ code: 'rate_limited' });
    expect(s.closed).toBeNull();
  });
});

describe('message refs', () => {
  it('come back on the message, answer a repeat with its number, and are named by every refusal', async () => {
    const a = await person('student');
    const r = await room([a.id]);
    const s = await open(a.cookie);
    s.send({ type: 'message', text: 'early', chatroom: r.id, ref: 'ref-early-1' });
    expect(await s.type('notice')).toMatchObject({ code: 'not_joined', ref: 'ref-early-1' });
    await s.join(r.id, 'Ana');
    s.send({ type: 'message', text: 'uno', chatroom: r.id, ref: 'ref-uno-0001' });
    expect(await s.type('message')).toMatchObject({ seq: 1, text: 'uno', ref: 'ref-uno-0001' });
    s.send({ type: 'message', text: 'uno', chatroom: r.id, ref: 'ref-uno-0001' });
    expect(await s.type('sent')).toEqual({ type: 'sent', chatroom: r.id, ref: 'ref-uno-0001', seq: 1 });
    s.send({ type: 'message', text: '  ', chatroom: r.id, ref: 'ref-blank-01' });
    expect(await s.type('notice')).toMatchObject({ code: 'empty', ref: 'ref-blank-01' });
    s.send({ type: 'message', text: 'x'.repeat(CHAT_MESSAGE_MAX + 1), chatroom: r.id, ref: 'ref-long-001' });
    expect(await s.type('notice')).toMatchObject({ code: 'too_long', ref: 'ref-long-001' });
    for (const ref of ['short', 'has space in it', 'x'.repeat(65), 42]) {
      s.send({ type: 'message', text: 'hi', chatroom: r.id, ref });
      expect(await s.type('notice')).toMatchObject({
        code: 'invalid',
        text: ChatLiveMessages.invalidMessageRef,
      });
    }
    // The store failing the append: the sender is told, with the ref.
    const pubsub = app.runtime.pubsub;
    const append = pubsub.appendAndPublish.bind(pubsub);
    pubsub.appendAndPublish = () => Promise.reject(new Error('store away'));
    try {
      s.send({ type: 'message', text: 'lost?', chatroom: r.id, ref: 'ref-away-001' });
      expect(await s.type('notice')).toMatchObject({
        code: 'unavailable',
        text: ChatLiveMessages.notSent,
        ref: 'ref-away-001',
      });
    } finally {
      pubsub.appendAndPublish = append;
    }
    // The repeat and the refusals took no number and reached nobody as messages.
    s.send({ type: 'message', text: 'dos', chatroom: r.id });
    const next = await s.type('message');
    expect(next).toMatchObject({ seq: 2, text: 'dos' });
    expect(next.ref).toBeUndefined();
    // Rate limits name the ref too (a repeat counts against the limit like any message).
    for (let i = 0; i < 5; i++)
      s.send({ type: 'message', text: `r${i}`, chatroom: r.id, ref: `ref-rate-${i}000` });
    expect(
      await s.next((e) => e.type === 'notice' && e.code === 'rate_limited', 'rate limited'),
    ).toMatchObject({ ref: expect.stringMatching(/^ref-rate-/) });
  });
});

describe('catching up', () => {
  it('gives a rejoining client exactly the messages it missed, then live ones, and its name back', async () => {
    const a = await person('student');
    const b = await person('teacher');
    const r = await room([a.id]);
    const sa = await open(a.cookie);
    const sb = await open(b.cookie);
    const joined = await sa.join(r.id, 'Ana');
    await sb.join(r.id, 'Profe');
    for (const text of ['uno', 'dos']) sb.send({ type: 'message', text, chatroom: r.id });
    expect(await sa.type('message')).toMatchObject({ seq: 1 });
    expect(await sa.type('message')).toMatchObject({ seq: 2 });
    // The connection drops without a leave (a train tunnel): the name is still held…
    sa.ws.terminate();
    for (const text of ['tres', 'cuatro']) sb.send({ type: 'message', text, chatroom: r.id });
    await sb.type('message');
    await sb.type('message');
    const back = await open(a.cookie);
    const rejoined = await back.join(r.id, 'Ana', { since: 2, resume: joined.resume });
    expect(rejoined).toMatchObject({ type: 'joined', seq: 4 });
    expect(rejoined.truncated).toBeUndefined();
    sb.send({ type: 'message', text: 'cinco', chatroom: r.id });
    const texts: string[] = [];
    for (let i = 0; i < 3; i++) texts.push((await back.type('message')).text as string);
    expect(texts).toEqual(['tres', 'cuatro', 'cinco']);
    await back.quietFor(100, (e) => e.type === 'message');
  });

  it('says when the client is behind the kept history', async () => {
    const chat = await startChat({ env: { CHAT_HISTORY_SIZE: '2' }, ...sharing() });
    try {
      const t = await person('teacher');
      const r = await room([]);
      const s = await ChatSocket.open(chat.url, { cookie: t.cookie });
      live.track(s);
      await s.join(r.id, 'Profe');
      for (const text of ['a', 'b', 'c']) s.send({ type: 'message', text, chatroom: r.id });
      for (let i = 0; i < 3; i++) await s.type('message');
      s.send({ type: 'leave', chatroom: r.id });
      const again = await s.join(r.id, 'Profe', { since: 0 });
      expect(again).toMatchObject({ seq: 3, truncated: true });
      expect([(await s.type('message')).text, (await s.type('message')).text]).toEqual(['b', 'c']);
    } finally {
      await chat.close();
    }
  });
});

describe('pub/sub losing messages', () => {
  it('fills a gap from the log, numbers on above what it delivered when Redis lost the room, and restarts members on lower numbers', async () => {
    const t = await person('teacher');
    const r = await room([]);
    const s = await open(t.cookie);
    await s.join(r.id, 'Profe');
    s.send({ type: 'message', text: 'uno', chatroom: r.id });
    expect(await s.type('message')).toMatchObject({ seq: 1 });
    // Kept and numbered, but published where no replica listens: as if pub/sub dropped it.
    const lost = JSON.stringify({
      type: 'message',
      id: randomUUID(),
      name: 'Profe',
      role: 'teacher',
      text: 'perdido',
      timestamp: new Date().toISOString(),
      chatroom: r.id,
    });
    await app.runtime.pubsub.appendAndPublish('nowhere', LiveKeys.log(r.id), `${t.id} ${lost}`, {
      keep: 200,
      ttlMs: 60_000,
    });
    s.send({ type: 'message', text: 'tres', chatroom: r.id });
    expect(await s.type('message')).toMatchObject({ seq: 2, text: 'perdido' });
    expect(await s.type('message')).toMatchObject({ seq: 3, text: 'tres' });
    // Redis lost the room (a restart without persistence): the replica numbers on above what it delivered (ADR
    // 0022), so members see the next message as new, with no reconnect.
    await app.runtime.pubsub.deleteLog(LiveKeys.log(r.id));
    const other = await open((await person('teacher')).cookie);
    await other.join(r.id, 'Otra');
    other.send({ type: 'message', text: 'de nuevo', chatroom: r.id });
    expect(await s.type('message')).toMatchObject({ seq: 4, text: 'de nuevo' });
    // Numbers lower than heard (a writer that remembered nothing of the room): the numbering restarted, and
    // members reconnect to start afresh.
    await app.runtime.pubsub.deleteLog(LiveKeys.log(r.id));
    const fresh = JSON.stringify({
      type: 'message',
      id: randomUUID(),
      name: 'Otra',
      role: 'teacher',
      text: 'uno otra vez',
      timestamp: new Date().toISOString(),
      chatroom: r.id,
    });
    await app.runtime.pubsub.appendAndPublish(
      LiveKeys.roomChannel(r.id),
      LiveKeys.log(r.id),
      `${t.id} ${fresh}`,
      { keep: 200, ttlMs: 60_000 },
    );
    expect((await s.closedWith()).code).toBe(ChatCloseCodes.serviceRestart);
  });
});

describe('moderation', () => {
  it('lets a teacher remove a message, mute a student and turn on slow mode; students cannot', async () => {
    const st = await person('student');
    const te = await person('teacher');
    const r = await room([st.id]);
    const ss = await open(st.cookie);
    const ts = await open(te.cookie);
    await ss.join(r.id, 'Ana');
    await ts.join(r.id, 'Profe');
    ss.send({ type: 'remove', chatroom: r.id, seq: 1 });
    expect(await ss.type('notice')).toMatchObject({
      code: 'forbidden',
      text: ChatLiveMessages.moderatorsOnly,
    });

    ss.send({ type: 'message', text: 'algo feo', chatroom: r.id });
    const bad = await ts.type('message');
    await ss.type('message');
    ts.send({ type: 'remove', chatroom: r.id, seq: bad.seq });
    expect(await ss.type('message_removed')).toEqual({
      type: 'message_removed',
      chatroom: r.id,
      seq: bad.seq,
      id: bad.id,
    });
    expect((await app.runtime.pubsub.readLog(LiveKeys.log(r.id), 0)).entries).toEqual([]);

    ts.send({ type: 'mute', chatroom: r.id, name: 'ana', minutes: 5 });
    expect(await ss.type('notice')).toMatchObject({ code: 'muted' });
    ss.send({ type: 'message', text: 'hola', chatroom: r.id });
    expect(await ss.type('notice')).toMatchObject({ code: 'muted' });
    ts.send({ type: 'mute', chatroom: r.id, name: 'Profe', minutes: 5 });
    expect(await ts.type('notice')).toMatchObject({ code: 'not_found' });
    ts.send({ type: 'mute', chatroom: r.id, name: 'Ana', minutes: 0 });
    expect(await ss.type('notice')).toMatchObject({ code: 'unmuted' });

    ts.send({ type: 'slow_mode', chatroom: r.id, seconds: 30 });
    expect(await ss.type('slow_mode')).toMatchObject({ seconds: 30, name: 'Profe' });
    ss.send({ type: 'message', text: 'uno', chatroom: r.id });
    expect(await ss.type('message')).toMatchObject({ text: 'uno' });
    ss.send({ type: 'message', text: 'dos', chatroom: r.id });
    const slow = await ss.type('notice');
    expect(slow).toMatchObject({ code: 'slow_mode', text: ChatLiveMessages.slowMode(30) });
    expect(slow.retryAfterMs).toBeGreaterThan(25_000);
    // Teachers are not slowed down.
    ts.send({ type: 'message', text: 'a', chatroom: r.id });
    ts.send({ type: 'message', text: 'b', chatroom: r.id });
    await ss.next((e) => e.type === 'message' && e.text === 'b', 'teacher message');
    // A newcomer learns the room's slow mode when joining.
    const st2 = await person('teacher');
    expect(await (await open(st2.cookie)).join(r.id, 'Otra')).toMatchObject({ slowModeSeconds: 30 });
  });
});

describe('closing sockets that may not stay', () => {
  it('closes a room’s sockets when it is deactivated or deleted, and an uninvited student’s', async () => {
    const st = await person('student');
    const other = await person('student');
    const r = await room([st.id, other.id]);
    const s = await open(st.cookie);
    const o = await open(other.cookie);
    await s.join(r.id, 'Ana');
    await o.join(r.id, 'Otro');
    await admin.put(`/api/admin/chatrooms/${r.id}`, { invitedUserIds: [st.id] });
    expect((await o.closedWith(1000)).code).toBe(ChatCloseCodes.roomClosed);
    expect(s.closed).toBeNull();
    await admin.put(`/api/admin/chatrooms/${r.id}`, { isActive: false });
    expect(await s.type('notice', 1000)).toMatchObject({
      code: 'room_closed',
      text: ChatLiveMessages.roomClosed,
    });
    expect((await s.closedWith(1000)).code).toBe(ChatCloseCodes.roomClosed);
    const r2 = await room([st.id]);
    const s2 = await open(st.cookie);
    await s2.join(r2.id, 'Ana');
    s2.send({ type: 'message', text: 'hola', chatroom: r2.id });
    await s2.type('message');
    await admin.delete(`/api/admin/chatrooms/${r2.id}`);
    expect((await s2.closedWith(1000)).code).toBe(ChatCloseCodes.roomClosed);
    expect(await app.runtime.pubsub.readLog(LiveKeys.log(r2.id), 0)).toEqual({
      entries: [],
      last: 0,
      truncated: false,
    });
  });

  it('closes a suspended user’s sockets within 1 s of identity.user.updated, and keeps others', async () => {
    const st = await person('student');
    const keep = await person('student');
    const r = await room([st.id, keep.id]);
    const s = await open(st.cookie);
    const k = await open(keep.cookie);
    await s.join(r.id, 'Ana');
    await k.join(r.id, 'Kim');
    // identity bumps the token version, then publishes the event.
    await new SessionStateStore(app.runtime.store).setVersion(st.id, 2);
    const started = Date.now();
    await app.runtime.bus.publish(Subjects.identityUserUpdated, userChanged(st.id));
    expect((await s.closedWith(1000)).code).toBe(ChatCloseCodes.sessionChanged);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await k.type('user_left')).toMatchObject({ name: 'Ana' });
    // A change that leaves the session valid (the version unchanged) keeps the socket.
    await app.runtime.bus.publish(Subjects.identityUserUpdated, userChanged(keep.id));
    await k.quietFor(300, (e) => e.type === 'notice');
    expect(k.closed).toBeNull();
  });

  it('closes a deleted user’s sockets and removes their kept messages', async () => {
    const st = await person('student');
    const te = await person('teacher');
    const r = await room([st.id]);
    const s = await open(st.cookie);
    const t = await open(te.cookie);
    await s.join(r.id, 'Ana');
    await t.join(r.id, 'Profe');
    s.send({ type: 'message', text: 'mío', chatroom: r.id });
    t.send({ type: 'message', text: 'del profe', chatroom: r.id });
    await t.next((e) => e.type === 'message' && e.text === 'del profe', 'teacher message');
    await app.runtime.bus.publish(Subjects.identityUserDeleted, { userId: st.id.toUpperCase() });
    expect((await s.closedWith(1000)).code).toBe(ChatCloseCodes.sessionChanged);
    await waitUntil(
      async () => (await app.runtime.pubsub.readLog(LiveKeys.log(r.id), 0)).entries.length === 1,
    );
    const [left] = (await app.runtime.pubsub.readLog(LiveKeys.log(r.id), 0)).entries;
    expect(left.entry).toContain('del profe');
  });
});

describe('pings', () => {
  it('go to every socket once a period, spread over it, and drop the ones that never answer', async () => {
    // A 3 s period: three turns a second apart, each socket in one of them (sockets pinged all at once stalled a
    // replica with thousands of them: bench/reports/chat.md).
    const chat = await startChat({ ...sharing(), env: { CHAT_PING_MS: '3000' } });
    try {
      const openHere = async (autoPong: boolean) => {
        const st = await person('student');
        const s = await ChatSocket.open(chat.url, { cookie: st.cookie, autoPong });
        live.track(s);
        const pings: number[] = [];
        s.ws.on('ping', () => pings.push(Date.now()));
        return { s, pings };
      };
      const answering = await Promise.all([0, 1, 2].map(() => openHere(true)));
      const silent = await openHere(false);
      const started = Date.now();
      // Pinged within a period, not answered, dropped at its next turn a period later.
      const closed = await silent.s.closedWith(7_500);
      expect(closed.code).toBe(1006);
      expect(silent.pings).toHaveLength(1);
      expect(Date.now() - started).toBeGreaterThan(2_500);
      // The answering sockets are still open, each pinged once a period, in different turns.
      for (const a of answering) expect(a.s.ws.readyState).toBe(a.s.ws.OPEN);
      for (const a of answering) expect(a.pings.length).toBeGreaterThanOrEqual(1);
      const first = answering.map((a) => a.pings[0]).sort((x, y) => x - y);
      expect(first[2] - first[0]).toBeGreaterThan(1_500);
      for (const a of answering)
        for (let i = 1; i < a.pings.length; i++) expect(a.pings[i] - a.pings[i - 1]).toBeGreaterThan(2_500);
    } finally {
      await chat.close();
    }
  });
});

describe('sessions ending without an event', () => {
  it('closes a socket whose session was signed out elsewhere, and one whose token expired', async () => {
    const chat = await startChat({ ...sharing(), env: { CHAT_SESSION_CHECK_MS: '100' } });
    try {
      // Checked together (one read of the store for the sweep's slice): each socket by its own session.
      const [st, other] = [await person('student'), await person('student')];
      const before = await ChatSocket.open(chat.url, { cookie: other.cookie });
      const s = await ChatSocket.open(chat.url, { cookie: st.cookie });
      const after = await ChatSocket.open(chat.url, { cookie: other.cookie });
      live.track(before, s, after);
      const sid = JSON.parse(Buffer.from(st.cookie.split('=')[1].split('.')[1], 'base64url').toString())
        .sid as string;
      await new SessionStateStore(app.runtime.store).revokeSession(sid, Date.now() + 60_000);
      expect((await s.closedWith(1000)).code).toBe(ChatCloseCodes.sessionChanged);
      await new Promise((resolve) => setTimeout(resolve, 300)); // three more sweeps
      expect([before.ws.readyState, after.ws.readyState]).toEqual([WebSocket.OPEN, WebSocket.OPEN]);
    } finally {
      await chat.close();
    }
    // A session at the end of its 24 h: its token expires in about 2 s, and so does the socket.
    const id = randomUUID();
    const { token } = await new TokenService(app.runtime.keys).sign({
      sub: id,
      tv: 1,
      sst: Math.floor(Date.now() / 1000) - MAX_SESSION_AGE_SECONDS + 2,
      role: 'student',
      approved: true,
      isAdmin: false,
      name: 'Late',
      username: 'late',
      email: 'late@school.test',
    });
    await new SessionStateStore(app.runtime.store).setVersion(id, 1);
    const s = await open(`district_session=${token}`);
    expect((await s.closedWith(3500)).code).toBe(ChatCloseCodes.sessionChanged);
  });
});

describe('a replica stopping', () => {
  it('tells its clients to reconnect, closes with 1012 and frees their names', async () => {
    const chat = await startChat(sharing());
    try {
      const st = await person('student');
      const r = await room([st.id]);
      const s = await ChatSocket.open(chat.url, { cookie: st.cookie });
      await s.join(r.id, 'Ana');
      const closing = chat.close();
      expect(await s.type('notice')).toMatchObject({
        code: 'reconnect',
        text: ChatLiveMessages.reconnecting,
      });
      expect((await s.closedWith()).code).toBe(ChatCloseCodes.serviceRestart);
      await closing;
      expect(await app.runtime.store.seats(LiveKeys.names(r.id))).toEqual([]);
    } finally {
      await chat.close();
    }
  });
});

/** Another replica of this test's chat: its tables, store and pub/sub (standalone: one memory backend). */
function sharing() {
  return {
    schema: app.schema,
    runtime: { store: app.runtime.store, pubsub: app.runtime.pubsub, keys: app.runtime.keys },
  };
}

function userChanged(id: string) {
  return {
    user: {
      id,
      name: 'X',
      username: 'x',
      email: 'x@school.test',
      role: 'student',
      isAdmin: false,
      approved: false,
      profileImage: null,
      createdAt: new Date().toISOString(),
    },
    tokenVersion: 2,
    changed: ['approval'],
  };
}

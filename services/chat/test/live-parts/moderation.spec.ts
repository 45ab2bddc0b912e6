import { randomUUID } from 'node:crypto';
import { ChatLiveMessages } from '@district/contracts';
import { sleep } from '@district/nest-common/testing';
import { LiveKeys, muteValue, parseMute } from '../../src/live-channels';
import { Moderation, mutedAtJoin } from '../../src/live/moderation';
import { RoomDelivery } from '../../src/live/room-delivery';
import {
  capturedLogger,
  fakeClient,
  liveConfig,
  membershipOf,
  messageEntry,
  personOf,
  redisParts,
  teacherOf,
  waitFor,
} from './parts-bench';

const parts = redisParts();
const config = liveConfig();
const holder = randomUUID();

function moderation() {
  const rooms = new RoomDelivery(parts.pubsub, parts.store, capturedLogger().logger);
  return new Moderation(parts.pubsub, parts.store, config, rooms);
}

/** A teacher who has joined `roomId` as Profe. */
function moderatorIn(roomId: string) {
  const t = fakeClient(teacherOf());
  t.c.membership = membershipOf(roomId, 'Profe');
  return t;
}

/** Someone seated in the room as the store holds it (any replica): their name, role and account. */
async function seat(
  roomId: string,
  name: string,
  role: 'student' | 'teacher',
  userId: string = randomUUID(),
) {
  await parts.store.claimSeat(LiveKeys.names(roomId), name.toLowerCase(), {
    process: holder,
    token: randomUUID(),
    data: JSON.stringify({ name, role, userId }),
  });
  return userId;
}

beforeAll(() => parts.store.heartbeat(holder, 120_000));

describe('Moderation', () => {
  it('answers only moderators, with a valid request, in the room they joined', async () => {
    const mod = moderation();
    const roomId = randomUUID();
    const student = fakeClient(personOf());
    student.c.membership = membershipOf(roomId);
    await mod.onSlowMode(student.c, { type: 'slow_mode', chatroom: roomId, seconds: 5 });
    expect(student.frames).toEqual([
      { type: 'notice', code: 'forbidden', text: ChatLiveMessages.moderatorsOnly },
    ]);
    const t = moderatorIn(roomId);
    await mod.onMute(t.c, { type: 'mute', chatroom: roomId, name: 'Ana', minutes: -1 });
    await mod.onRemove(t.c, { type: 'remove', chatroom: roomId });
    await mod.onSlowMode(t.c, { type: 'slow_mode', chatroom: randomUUID(), seconds: 5 });
    t.c.membership = null;
    await mod.onSlowMode(t.c, { type: 'slow_mode', chatroom: roomId, seconds: 5 });
    expect(t.frames.map((f) => [f.code, f.text])).toEqual([
      ['invalid', ChatLiveMessages.invalidRequest],
      ['invalid', ChatLiveMessages.invalidRequest],
      ['not_joined', ChatLiveMessages.notJoined],
      ['not_joined', ChatLiveMessages.notJoined],
    ]);
    expect(await parts.store.get(LiveKeys.slowMode(roomId))).toBeNull();
  });

  it('takes a kept message out of the log and tells the room its number and id', async () => {
    const mod = moderation();
    const roomId = randomUUID();
    const heard = await parts.listen(roomId);
    const first = messageEntry(roomId, 'uno');
    for (const { entry } of [first, messageEntry(roomId, 'dos')])
      await parts.pubsub.appendAndPublish(LiveKeys.roomChannel(roomId), LiveKeys.log(roomId), entry, {
        keep: 100,
        ttlMs: 60_000,
      });
    const t = moderatorIn(roomId.toUpperCase());
    t.c.membership = membershipOf(roomId, 'Profe');
    await mod.onRemove(t.c, { type: 'remove', chatroom: roomId.toUpperCase(), seq: 1 });
    expect((await parts.pubsub.readLog(LiveKeys.log(roomId), 0)).entries.map((e) => e.seq)).toEqual([2]);
    await waitFor(() => heard.events.length === 1, 'message_removed heard');
    expect(heard.events[0]).toEqual({ type: 'message_removed', chatroom: roomId, seq: 1, id: first.id });
    expect(t.frames).toEqual([]);
  });

  it('mutes a student under the name they hold, stored with its end and that name, tells the replicas, and unmutes', async () => {
    const mod = moderation();
    const roomId = randomUUID();
    const anaId = await seat(roomId, 'Ana', 'student');
    const heard = await parts.listen(roomId);
    const t = moderatorIn(roomId);
    const before = Date.now();
    await mod.onMute(t.c, { type: 'mute', chatroom: roomId, name: ' ana ', minutes: 5 });
    const stored = parseMute(await parts.store.get(LiveKeys.mute(roomId, anaId)));
    expect(stored.seat).toBe('ana');
    expect(stored.until).toBeGreaterThanOrEqual(before + 5 * 60_000);
    expect(stored.until).toBeLessThanOrEqual(Date.now() + 5 * 60_000);
    const ttl = await parts.store.pttl(LiveKeys.mute(roomId, anaId));
    expect(ttl).toBeGreaterThan(4 * 60_000);
    expect(ttl).toBeLessThanOrEqual(5 * 60_000);
    await waitFor(() => heard.messages.length === 1, '_mute heard');
    expect(heard.events[0]).toEqual({ type: '_mute', userId: anaId, until: stored.until });

    await mod.onMute(t.c, { type: 'mute', chatroom: roomId, name: 'Ana', minutes: 0 });
    expect(await parts.store.get(LiveKeys.mute(roomId, anaId))).toBeNull();
    await waitFor(() => heard.messages.length === 2, 'the unmute heard');
    expect(heard.events[1]).toEqual({ type: '_mute', userId: anaId, until: 0 });
    expect(t.frames).toEqual([]);
  });

  it('mutes nobody who is not a student in the room: a teacher, a name nobody holds, the moderator themself', async () => {
    const mod = moderation();
    const roomId = randomUUID();
    const t = moderatorIn(roomId);
    const otherTeacher = await seat(roomId, 'Sra Ruiz', 'teacher');
    await seat(roomId, 'Profe', 'teacher', t.person.id);
    const heard = await parts.listen(roomId);
    for (const name of ['Sra Ruiz', 'Nadie', 'Profe', ''])
      await mod.onMute(t.c, { type: 'mute', chatroom: roomId, name, minutes: 5 });
    expect(t.frames.map((f) => [f.code, f.text])).toEqual(
      ['Sra Ruiz', 'Nadie', 'Profe', ''].map((n) => ['not_found', ChatLiveMessages.noSuchParticipant(n)]),
    );
    expect(await parts.store.get(LiveKeys.mute(roomId, otherTeacher))).toBeNull();
    await sleep(50);
    expect(heard.messages).toEqual([]);
  });

  it('keeps slow mode as long as the room’s history, tells the room who set it, and turns it off at 0', async () => {
    const mod = moderation();
    const roomId = randomUUID();
    const heard = await parts.listen(roomId);
    const t = moderatorIn(roomId);
    await mod.onSlowMode(t.c, { type: 'slow_mode', chatroom: roomId, seconds: 10 });
    expect(await parts.store.get(LiveKeys.slowMode(roomId))).toBe('10');
    const ttl = await parts.store.pttl(LiveKeys.slowMode(roomId));
    expect(ttl).toBeGreaterThan(config.CHAT_HISTORY_TTL_MINUTES * 60_000 - 60_000);
    expect(ttl).toBeLessThanOrEqual(config.CHAT_HISTORY_TTL_MINUTES * 60_000);
    await mod.onSlowMode(t.c, { type: 'slow_mode', chatroom: roomId, seconds: 0 });
    expect(await parts.store.get(LiveKeys.slowMode(roomId))).toBeNull();
    await waitFor(() => heard.events.length === 2, 'slow_mode heard twice');
    expect(heard.events).toEqual([
      { type: 'slow_mode', chatroom: roomId, seconds: 10, name: 'Profe' },
      { type: 'slow_mode', chatroom: roomId, seconds: 0, name: 'Profe' },
    ]);
  });

  it('refuses a muted student’s join under another name until the mute ends; never a moderator’s', async () => {
    const roomId = randomUUID();
    const ana = personOf();
    const until = Date.now() + 60_000;
    await parts.store.set(LiveKeys.mute(roomId, ana.id), muteValue(until, 'ana'), 60_000);
    expect(await mutedAtJoin(parts.store, ana, roomId, 'otra')).toBe(new Date(until).toISOString());
    expect(await mutedAtJoin(parts.store, ana, roomId, 'ana')).toBeNull();
    expect(await mutedAtJoin(parts.store, { ...ana, canModerate: true }, roomId, 'otra')).toBeNull();
    // A mute of only an end (no name) lets no name in; an ended one lets any.
    await parts.store.set(LiveKeys.mute(roomId, ana.id), String(until), 60_000);
    expect(await mutedAtJoin(parts.store, ana, roomId, 'ana')).toBe(new Date(until).toISOString());
    await parts.store.set(LiveKeys.mute(roomId, ana.id), muteValue(Date.now() - 1, 'ana'), 60_000);
    expect(await mutedAtJoin(parts.store, ana, roomId, 'otra')).toBeNull();
  });
});

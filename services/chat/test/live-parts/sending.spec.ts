import { randomUUID } from 'node:crypto';
import { CHAT_MESSAGE_MAX, CHAT_RATE_MESSAGES, ChatLiveMessages, type ChatSend } from '@district/contracts';
import { AccountLimits } from '../../src/live/account-limits';
import { LiveKeys } from '../../src/live-channels';
import { RoomDelivery } from '../../src/live/room-delivery';
import { MessageSending } from '../../src/live/sending';
import {
  capturedLogger,
  fakeClient,
  liveConfig,
  membershipOf,
  personOf,
  redisParts,
  teacherOf,
  type FakeClient,
} from './parts-bench';

const parts = redisParts();

function sendingOver() {
  const rooms = new RoomDelivery(parts.pubsub, parts.store, capturedLogger().logger);
  const sending = new MessageSending(
    parts.pubsub,
    parts.store,
    new AccountLimits(parts.store),
    liveConfig({ CHAT_HISTORY_SIZE: 50 }),
    rooms,
  );
  return { rooms, sending };
}

/** A member of a new room, entered here so it hears the room. */
async function memberOf(rooms: RoomDelivery, person = personOf(), name = 'Ana') {
  const roomId = randomUUID();
  const client = fakeClient(person);
  client.c.membership = membershipOf(roomId, name);
  await rooms.enterRoom(roomId, client.c);
  return { client, roomId };
}

const say = (roomId: string, text: string, ref?: string): ChatSend => ({
  type: 'message',
  chatroom: roomId,
  text,
  ...(ref === undefined ? {} : { ref }),
});

const kept = async (roomId: string) =>
  (await parts.pubsub.readLog(LiveKeys.log(roomId), 0)).entries.map((e) => ({
    seq: e.seq,
    author: e.entry.slice(0, e.entry.indexOf(' ')),
    text: (JSON.parse(e.entry.slice(e.entry.indexOf(' ') + 1)) as { text: string }).text,
  }));

const last = (c: FakeClient) => c.frames.at(-1);

describe('MessageSending', () => {
  it('numbers, keeps and publishes a member’s message, trimmed, under their name and role; the room hears it in order', async () => {
    const { rooms, sending } = sendingOver();
    const { client, roomId } = await memberOf(rooms);
    await sending.message(client.c, say(roomId.toUpperCase(), '  hola  '));
    await sending.message(client.c, say(roomId, 'qué tal', 'ref-0001'));
    expect(await kept(roomId)).toEqual([
      { seq: 1, author: client.person.id, text: 'hola' },
      { seq: 2, author: client.person.id, text: 'qué tal' },
    ]);
    const heard = await client.wait('message', 2);
    expect(heard.map((f) => [f.seq, f.text, f.name, f.role, f.chatroom])).toEqual([
      [1, 'hola', 'Ana', 'student', roomId],
      [2, 'qué tal', 'Ana', 'student', roomId],
    ]);
    expect(heard[1].ref).toBe('ref-0001');
    expect(sending.accepted).toBe(2);
    rooms.exitRoom(roomId, client.c);
  });

  it('refuses, naming the message’s ref: not in the room, still catching up, empty, too long, muted', async () => {
    const { rooms, sending } = sendingOver();
    const { client, roomId } = await memberOf(rooms);
    const ref = 'ref-refused';
    const m = client.c.membership;
    if (!m) throw new Error('joined above');
    await sending.message(client.c, say(randomUUID(), 'x', ref));
    m.pending = [];
    await sending.message(client.c, say(roomId, 'x', ref));
    m.pending = null;
    await sending.message(client.c, say(roomId, '   ', ref));
    await sending.message(client.c, say(roomId, 'ñ'.repeat(CHAT_MESSAGE_MAX + 1), ref));
    m.mutedUntil = Date.now() + 60_000;
    await sending.message(client.c, say(roomId, 'x', ref));
    const until = new Date(m.mutedUntil).toISOString();
    expect(client.frames).toEqual([
      { type: 'notice', code: 'not_joined', text: ChatLiveMessages.notJoined, ref },
      { type: 'notice', code: 'not_joined', text: ChatLiveMessages.notJoined, ref },
      { type: 'notice', code: 'empty', text: ChatLiveMessages.emptyMessage, chatroom: roomId, ref },
      { type: 'notice', code: 'too_long', text: ChatLiveMessages.messageTooLong, chatroom: roomId, ref },
      { type: 'notice', code: 'muted', text: ChatLiveMessages.muted(until), chatroom: roomId, until, ref },
    ]);
    // Exactly the limit is a message.
    m.mutedUntil = 0;
    await sending.message(client.c, say(roomId, 'ñ'.repeat(CHAT_MESSAGE_MAX)));
    expect((await kept(roomId)).map((e) => e.seq)).toEqual([1]);
    expect(sending.accepted).toBe(1);
    rooms.exitRoom(roomId, client.c);
  });

  it('refuses an account’s messages beyond its budget, saying how long to wait, across its sockets', async () => {
    const { rooms, sending } = sendingOver();
    const person = personOf();
    const { client, roomId } = await memberOf(rooms, person);
    const tab = fakeClient(person);
    tab.c.membership = membershipOf(roomId, 'Ana');
    for (let i = 0; i < CHAT_RATE_MESSAGES; i++)
      await sending.message(i % 2 ? tab.c : client.c, say(roomId, `m${i}`));
    await sending.message(tab.c, say(roomId, 'one too many'));
    expect(last(tab)).toMatchObject({
      type: 'notice',
      code: 'rate_limited',
      text: ChatLiveMessages.rateLimited,
    });
    expect(Number(last(tab)?.retryAfterMs)).toBeGreaterThan(0);
    expect(await kept(roomId)).toHaveLength(CHAT_RATE_MESSAGES);
    rooms.exitRoom(roomId, client.c);
  });

  it('in slow mode lets a student send once a period and says how long is left; a moderator sends freely', async () => {
    const { rooms, sending } = sendingOver();
    const { client, roomId } = await memberOf(rooms);
    const m = client.c.membership;
    if (!m) throw new Error('joined above');
    m.slowModeSeconds = 30;
    await sending.message(client.c, say(roomId, 'uno'));
    await sending.message(client.c, say(roomId, 'dos'));
    expect(last(client)).toMatchObject({
      type: 'notice',
      code: 'slow_mode',
      text: ChatLiveMessages.slowMode(30),
      chatroom: roomId,
    });
    const left = Number(last(client)?.retryAfterMs);
    expect(left).toBeGreaterThan(25_000);
    expect(left).toBeLessThanOrEqual(30_000);
    const t = fakeClient(teacherOf());
    t.c.membership = membershipOf(roomId, 'Profe', { slowModeSeconds: 30 });
    await sending.message(t.c, say(roomId, 'tres'));
    await sending.message(t.c, say(roomId, 'cuatro'));
    expect((await kept(roomId)).map((e) => e.text)).toEqual(['uno', 'tres', 'cuatro']);
    rooms.exitRoom(roomId, client.c);
  });

  it('appends a ref once: the same message sent again is answered with its number, not kept or counted twice', async () => {
    const { rooms, sending } = sendingOver();
    const { client, roomId } = await memberOf(rooms);
    await sending.message(client.c, say(roomId, 'una vez', 'ref-once-1'));
    const again = fakeClient(client.person);
    again.c.membership = membershipOf(roomId, 'Ana');
    await sending.message(again.c, say(roomId, 'una vez', 'ref-once-1'));
    expect(again.frames).toEqual([{ type: 'sent', chatroom: roomId, ref: 'ref-once-1', seq: 1 }]);
    expect(await kept(roomId)).toHaveLength(1);
    expect(sending.accepted).toBe(1);
    rooms.exitRoom(roomId, client.c);
  });

  it('numbers above what this replica delivered, even after the store lost the room’s numbers', async () => {
    const { rooms, sending } = sendingOver();
    const { client, roomId } = await memberOf(rooms);
    for (const text of ['uno', 'dos', 'tres']) await sending.message(client.c, say(roomId, text));
    await client.wait('message', 3);
    await parts.pubsub.deleteLog(LiveKeys.log(roomId));
    await sending.message(client.c, say(roomId, 'cuatro'));
    expect((await kept(roomId)).map((e) => e.seq)).toEqual([4]);
    rooms.exitRoom(roomId, client.c);
  });
});

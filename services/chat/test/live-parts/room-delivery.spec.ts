import { randomUUID } from 'node:crypto';
import { ChatCloseCodes, ChatLiveMessages } from '@district/contracts';
import { sleep } from '@district/nest-common/testing';
import { LiveKeys } from '../../src/live-channels';
import { numbered, presenceOf } from '../../src/live/live-frames';
import { RoomDelivery } from '../../src/live/room-delivery';
import {
  capturedLogger,
  fakeClient,
  membershipOf,
  messageEntry,
  namesIn,
  personOf,
  redisParts,
  waitFor,
  type FakeClient,
} from './parts-bench';

const parts = redisParts();
const KEEP = { keep: 100, ttlMs: 60_000 };

function delivery() {
  const { logger, lines } = capturedLogger();
  return { rooms: new RoomDelivery(parts.pubsub, parts.store, logger), lines };
}

/** A client that has joined `roomId` (its membership set, nothing pending), entered into the room here. */
async function member(rooms: RoomDelivery, roomId: string, name = 'Ana'): Promise<FakeClient> {
  const client = fakeClient(personOf());
  client.c.membership = membershipOf(roomId, name);
  await rooms.enterRoom(roomId, client.c);
  return client;
}

/** Appends a message as sending does: numbered, kept and published on the room's channel (or `channel`). */
function append(roomId: string, text: string, channel = LiveKeys.roomChannel(roomId)): Promise<number> {
  return parts.pubsub.appendAndPublish(channel, LiveKeys.log(roomId), messageEntry(roomId, text).entry, KEEP);
}

const seqs = (c: FakeClient) => c.of('message').map((f) => f.seq);
const texts = (c: FakeClient) => c.of('message').map((f) => f.text);

describe('RoomDelivery', () => {
  it('delivers a room’s numbered messages to its members here in number order, over one subscription that ends with the last member', async () => {
    const { rooms } = delivery();
    const roomId = randomUUID();
    const a = await member(rooms, roomId, 'Ana');
    const b = await member(rooms, roomId, 'Beto');
    expect(rooms.size).toBe(1);
    expect(await parts.subscribers(roomId)).toBe(1);
    for (const text of ['uno', 'dos', 'tres']) await append(roomId, text);
    await a.wait('message', 3);
    await b.wait('message', 3);
    expect(seqs(a)).toEqual([1, 2, 3]);
    expect(texts(b)).toEqual(['uno', 'dos', 'tres']);
    expect(rooms.deliveries).toBe(6);

    rooms.exitRoom(roomId, a.c);
    expect(rooms.size).toBe(1);
    rooms.exitRoom(roomId, b.c);
    expect(rooms.size).toBe(0);
    expect(rooms.get(roomId)).toBeUndefined();
    await waitFor(async () => (await parts.subscribers(roomId)) === 0, 'the room’s subscription ended');
  });

  it('reads messages pub/sub lost from the log before the next, so every member still gets each once, in order', async () => {
    const { rooms, lines } = delivery();
    const roomId = randomUUID();
    const a = await member(rooms, roomId);
    await append(roomId, 'uno');
    await a.wait('message', 1);
    // Two appended where this replica does not hear them (as if pub/sub dropped them), then one it hears.
    await append(roomId, 'dos', 'chat:elsewhere');
    await append(roomId, 'tres', 'chat:elsewhere');
    await append(roomId, 'cuatro');
    await a.wait('message', 4);
    await sleep(100);
    expect(seqs(a)).toEqual([1, 2, 3, 4]);
    expect(texts(a)).toEqual(['uno', 'dos', 'tres', 'cuatro']);
    expect(lines.find((l) => l.msg === 'chat messages missed on pub/sub, read from the log')).toMatchObject({
      chatroomId: roomId,
      after: 1,
      recovered: 3,
    });
    rooms.exitRoom(roomId, a.c);
  });

  it('closes its members to reconnect when the room’s numbering restarts (Redis lost it)', async () => {
    const { rooms, lines } = delivery();
    const roomId = randomUUID();
    const a = await member(rooms, roomId);
    await append(roomId, 'uno');
    await append(roomId, 'dos');
    await a.wait('message', 2);
    await parts.pubsub.deleteLog(LiveKeys.log(roomId));
    await append(roomId, 'otra vez uno');
    await waitFor(() => a.closes.length > 0, 'the member closed');
    expect(a.closes).toEqual([{ code: ChatCloseCodes.serviceRestart, reason: 'reconnect' }]);
    expect(a.frames.at(-1)).toMatchObject({
      type: 'notice',
      code: 'reconnect',
      text: ChatLiveMessages.reconnecting,
    });
    expect(seqs(a)).toEqual([1, 2]);
    expect(lines.some((l) => l.msg === 'chat numbering restarted; members reconnect')).toBe(true);
    rooms.exitRoom(roomId, a.c);
  });

  it('holds a numbered message for a member still catching up, and skips one it already has', () => {
    const { rooms } = delivery();
    const client = fakeClient();
    const m = membershipOf('r', 'Ana', { pending: [], lastSeq: 0 });
    client.c.membership = m;
    const msg = (seq: number) => numbered(`${seq} ${messageEntry('r', `m${seq}`).entry}`);
    rooms.deliverNumbered(client.c, msg(5));
    expect(m.pending).toHaveLength(1);
    expect(client.frames).toEqual([]);
    m.pending = null;
    m.lastSeq = 5;
    rooms.deliverNumbered(client.c, msg(5));
    rooms.deliverNumbered(client.c, msg(4));
    expect(client.frames).toEqual([]);
    rooms.deliverNumbered(client.c, msg(6));
    expect(seqs(client)).toEqual([6]);
    expect(m.lastSeq).toBe(6);
    // A numbered entry that is not a message is counted as had, and sends nothing.
    rooms.deliverNumbered(client.c, numbered('7 u {"type":"something_else"}'));
    expect(client.frames).toHaveLength(1);
    expect(rooms.deliveries).toBe(1);
  });

  it('keeps the room’s roster from the store’s seats and the presence heard, and passes events on to its members', async () => {
    const { rooms } = delivery();
    const roomId = randomUUID();
    const other = randomUUID();
    await parts.store.heartbeat(other, 60_000);
    await parts.store.claimSeat(LiveKeys.names(roomId), 'carla', {
      process: other,
      token: 't',
      data: JSON.stringify({ name: 'Carla', role: 'student', userId: randomUUID() }),
    });
    const a = await member(rooms, roomId);
    const room = rooms.get(roomId);
    expect(room && namesIn(room.roster)).toEqual([{ name: 'Carla', role: 'student' }]);

    await rooms.publishEvent(roomId, presenceOf('user_joined', roomId, 'Beto', 'student'));
    await a.wait('user_joined');
    expect(room && namesIn(room.roster)).toEqual([
      { name: 'Carla', role: 'student' },
      { name: 'Beto', role: 'student' },
    ]);
    await rooms.publishEvent(roomId, presenceOf('user_left', roomId, 'Carla', 'student'));
    await a.wait('user_left');
    expect(room && namesIn(room.roster)).toEqual([{ name: 'Beto', role: 'student' }]);

    await rooms.publishEvent(roomId, { type: 'slow_mode', chatroom: roomId, seconds: 7, name: 'Profe' });
    await a.wait('slow_mode');
    expect(a.c.membership?.slowModeSeconds).toBe(7);
    expect(rooms.deliveries).toBe(3);
    rooms.exitRoom(roomId, a.c);
  });

  it('tells only the muted person’s sockets of their mute and its end, and of the unmute', async () => {
    const { rooms } = delivery();
    const roomId = randomUUID();
    const muted = await member(rooms, roomId, 'Ana');
    const other = await member(rooms, roomId, 'Beto');
    const until = Date.now() + 60_000;
    const channel = LiveKeys.roomChannel(roomId);
    await parts.pubsub.publish(
      channel,
      `- ${JSON.stringify({ type: '_mute', userId: muted.person.id, until })}`,
    );
    const [said] = await muted.wait('notice');
    const iso = new Date(until).toISOString();
    expect(said).toEqual({
      type: 'notice',
      code: 'muted',
      text: ChatLiveMessages.muted(iso),
      chatroom: roomId,
      until: iso,
    });
    expect(muted.c.membership?.mutedUntil).toBe(until);
    await parts.pubsub.publish(
      channel,
      `- ${JSON.stringify({ type: '_mute', userId: muted.person.id, until: 0 })}`,
    );
    await muted.wait('notice', 2);
    expect(muted.of('notice')[1]).toMatchObject({ code: 'unmuted', text: ChatLiveMessages.unmuted });
    expect(muted.c.membership?.mutedUntil).toBe(0);
    await sleep(50);
    expect(other.frames).toEqual([]);
    rooms.exitRoom(roomId, muted.c);
    rooms.exitRoom(roomId, other.c);
  });
});

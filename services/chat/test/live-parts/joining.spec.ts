import { randomUUID } from 'node:crypto';
import {
  CHAT_PRESENCE_BURST,
  ChatCloseCodes,
  ChatLiveMessages,
  type ChatJoin,
  type Chatroom,
} from '@district/contracts';
import { sleep } from '@district/nest-common/testing';
import { FreshReads } from '../../src/chatrooms/fresh-reads';
import { AccountLimits } from '../../src/live/account-limits';
import { Joining, mayJoin } from '../../src/live/joining';
import { LiveKeys, muteValue } from '../../src/live-channels';
import { RoomDelivery } from '../../src/live/room-delivery';
import {
  capturedLogger,
  fakeClient,
  messageEntry,
  personOf,
  redisParts,
  teacherOf,
  waitFor,
  type FakeClient,
} from './parts-bench';

const parts = redisParts();
const processId = randomUUID();

function roomOf(invitedUserIds: string[] = [], isActive = true): Chatroom {
  return {
    id: randomUUID(),
    name: 'Room',
    description: '',
    invitedUserIds,
    isActive,
    createdAt: new Date().toISOString(),
  };
}

/** A Joining over the real store and pub/sub, its rooms' rows read from `table` (`load` may be replaced). */
function joiningOver(
  table: Map<string, Chatroom>,
  load = (id: string) => Promise.resolve(table.get(id) ?? null),
) {
  const rooms = new RoomDelivery(parts.pubsub, parts.store, capturedLogger().logger);
  const joining = new Joining(
    processId,
    parts.pubsub,
    parts.store,
    new AccountLimits(parts.store),
    new FreshReads<string, Chatroom | null>(load),
    rooms,
  );
  return { rooms, joining };
}

const join = (room: Chatroom | string, name: string, more: Partial<ChatJoin> = {}): ChatJoin => ({
  type: 'join',
  chatroom: typeof room === 'string' ? room : room.id,
  name,
  ...more,
});

const seatsOf = async (roomId: string) =>
  (await parts.store.seats(LiveKeys.names(roomId))).map((s) => ({ seat: s.seat, process: s.holder.process }));

beforeAll(() => parts.store.heartbeat(processId, 120_000));

describe('Joining', () => {
  it('lets an invited person in under a seat of this replica, answers with the participants, and tells the room', async () => {
    const table = new Map<string, Chatroom>();
    const { joining, rooms } = joiningOver(table);
    const ana = fakeClient(personOf());
    const room = roomOf([ana.person.id]);
    table.set(room.id, room);
    const heard = await parts.listen(room.id);

    await joining.join(ana.c, join(room.id.toUpperCase(), '  Ana  '));
    const [joined] = ana.of('joined');
    expect(joined).toMatchObject({
      type: 'joined',
      chatroom: room.id,
      name: 'Ana',
      role: 'student',
      seq: 0,
      canModerate: false,
      participants: [{ name: 'Ana', role: 'student' }],
    });
    expect(joined.resume).toBe(ana.c.membership?.token);
    expect(ana.c.membership).toMatchObject({ roomId: room.id, name: 'Ana', seat: 'ana', pending: null });
    expect(await seatsOf(room.id)).toEqual([{ seat: 'ana', process: processId }]);
    await waitFor(() => heard.events.length === 1, 'user_joined heard');
    expect(heard.events[0]).toMatchObject({ type: 'user_joined', name: 'Ana', chatroom: room.id });
    expect(heard.events[0].quiet).toBeUndefined();

    // A teacher comes in without an invitation; Ana, a member here, hears her own arrival, then the teacher's.
    const profe = fakeClient(teacherOf());
    await joining.join(profe.c, join(room, 'Profe'));
    expect(profe.of('joined')[0].participants).toEqual([
      { name: 'Ana', role: 'student' },
      { name: 'Profe', role: 'teacher' },
    ]);
    await ana.wait('user_joined', 2);
    expect(ana.of('user_joined').map((f) => [f.name, f.role])).toEqual([
      ['Ana', 'student'],
      ['Profe', 'teacher'],
    ]);
    await joining.leave(ana.c, false);
    await joining.leave(profe.c, false);
    expect(rooms.size).toBe(0);
  });

  it('refuses an unapproved person, the uninvited, a room that is not there or not active, a bad name and a taken one', async () => {
    const table = new Map<string, Chatroom>();
    const { joining } = joiningOver(table);
    const ana = fakeClient(personOf());
    const room = roomOf([ana.person.id]);
    const closed = roomOf([ana.person.id], false);
    for (const r of [room, closed]) table.set(r.id, r);
    const reasonFor = async (client: FakeClient, j: ChatJoin) => {
      await joining.join(client.c, j);
      const last = client.frames.at(-1);
      return last?.type === 'join_rejected' ? [last.reason, last.text] : last?.type;
    };
    expect(await reasonFor(fakeClient(personOf({ approved: false })), join(room, 'X'))).toEqual([
      'not_approved',
      ChatLiveMessages.notApproved,
    ]);
    expect(await reasonFor(fakeClient(personOf()), join(room, 'X'))).toEqual([
      'not_invited',
      ChatLiveMessages.notInvited,
    ]);
    for (const where of [closed.id, randomUUID(), 'not-a-room'])
      expect(await reasonFor(fakeClient(teacherOf()), join(where, 'X'))).toEqual([
        'no_room',
        ChatLiveMessages.roomUnavailable,
      ]);
    expect(await reasonFor(ana, join(room, '   '))).toEqual(['invalid_name', ChatLiveMessages.enterName]);
    expect(await seatsOf(room.id)).toEqual([]);

    expect(await reasonFor(ana, join(room, 'Ana'))).toBe('joined');
    expect(await reasonFor(fakeClient(teacherOf()), join(room, 'ANA'))).toEqual([
      'name_taken',
      ChatLiveMessages.nameTaken('ANA'),
    ]);
    await joining.leave(ana.c, false);
  });

  it('gives a seat back to its token without telling the room again; a leave frees the name and is heard', async () => {
    const table = new Map<string, Chatroom>();
    const { joining } = joiningOver(table);
    const person = teacherOf();
    const first = fakeClient(person);
    const room = roomOf();
    table.set(room.id, room);
    const heard = await parts.listen(room.id);
    await joining.join(first.c, join(room, 'Profe'));
    const token = String(first.of('joined')[0].resume);

    // The same person on a new socket (a dropped connection), presenting the seat's token.
    const again = fakeClient(person);
    await joining.join(again.c, join(room, 'Profe', { resume: token }));
    expect(again.of('joined')).toHaveLength(1);
    await sleep(100);
    expect(heard.events.map((e) => e.type)).toEqual(['user_joined']);

    // The old socket's leave no longer holds the seat: nothing is freed or said.
    await joining.leave(first.c, true);
    expect(await seatsOf(room.id)).toEqual([{ seat: 'profe', process: processId }]);
    await joining.leave(again.c, true);
    expect(again.c.membership).toBeNull();
    expect(await seatsOf(room.id)).toEqual([]);
    await waitFor(() => heard.events.length === 2, 'user_left heard');
    expect(heard.events[1]).toMatchObject({ type: 'user_left', name: 'Profe' });
  });

  it('catches a member up from the log after the number it had, and says when the log no longer holds it', async () => {
    const table = new Map<string, Chatroom>();
    const { joining } = joiningOver(table);
    const room = roomOf();
    table.set(room.id, room);
    for (const text of ['uno', 'dos', 'tres'])
      await parts.pubsub.appendAndPublish(
        LiveKeys.roomChannel(room.id),
        LiveKeys.log(room.id),
        messageEntry(room.id, text).entry,
        { keep: 100, ttlMs: 60_000 },
      );
    const back = fakeClient(teacherOf());
    await joining.join(back.c, join(room, 'Profe', { since: 1 }));
    expect(back.frames.map((f) => [f.type, f.seq])).toEqual([
      ['joined', 3],
      ['message', 2],
      ['message', 3],
    ]);
    expect(back.of('joined')[0].truncated).toBeUndefined();
    expect(back.c.membership?.lastSeq).toBe(3);
    const ahead = fakeClient(teacherOf());
    await joining.join(ahead.c, join(room, 'Otra', { since: 9 }));
    expect(ahead.of('joined')[0].truncated).toBe(true);
    expect(ahead.of('message')).toEqual([]);
    await joining.leave(back.c, false);
    await joining.leave(ahead.c, false);
  });

  it('reads the room again when it changed while the join was on its way in, and closes a join into a room closed meanwhile', async () => {
    const table = new Map<string, Chatroom>();
    const room = roomOf();
    table.set(room.id, room);
    let reads = 0;
    const { joining, rooms } = joiningOver(table, (id) => {
      reads += 1;
      const row = table.get(id) ?? null;
      if (reads === 1) {
        // The room is deactivated, and the control channel says so, after this join read it active.
        table.set(id, { ...room, isActive: false });
        joining.roomChanged();
      }
      return Promise.resolve(row);
    });
    const late = fakeClient(teacherOf());
    await joining.join(late.c, join(room, 'Profe'));
    expect(reads).toBe(2);
    expect(late.of('joined')).toEqual([]);
    expect(late.frames.at(-1)).toMatchObject({ type: 'notice', code: 'room_closed', chatroom: room.id });
    expect(late.closes).toEqual([{ code: ChatCloseCodes.roomClosed, reason: 'room_closed' }]);
    expect(late.c.membership).toBeNull();
    expect(await seatsOf(room.id)).toEqual([]);
    expect(rooms.size).toBe(0);
  });

  it('lets a muted student back only under the name they were muted under, still muted', async () => {
    const table = new Map<string, Chatroom>();
    const { joining } = joiningOver(table);
    const ana = personOf();
    const room = roomOf([ana.id]);
    table.set(room.id, room);
    const until = Date.now() + 60_000;
    await parts.store.set(LiveKeys.mute(room.id, ana.id), muteValue(until, 'ana'), 60_000);
    const renamed = fakeClient(ana);
    await joining.join(renamed.c, join(room, 'Otra'));
    const iso = new Date(until).toISOString();
    expect(renamed.frames.at(-1)).toMatchObject({
      type: 'join_rejected',
      reason: 'muted',
      text: ChatLiveMessages.mutedJoin(iso),
      until: iso,
    });
    const same = fakeClient(ana);
    await joining.join(same.c, join(room, 'ANA'));
    expect(same.of('joined')).toHaveLength(1);
    expect(same.c.membership?.mutedUntil).toBe(until);
    await joining.leave(same.c, false);
  });

  it('refuses joins over the account’s budget of joins and leaves, saying how long to wait', async () => {
    const table = new Map<string, Chatroom>();
    const { joining } = joiningOver(table);
    const busy = personOf();
    const room = roomOf([busy.id]);
    table.set(room.id, room);
    const limits = new AccountLimits(parts.store);
    for (let i = 0; i < CHAT_PRESENCE_BURST; i++) expect(await limits.presence(busy.id)).toBe(0);
    const client = fakeClient(busy);
    await joining.join(client.c, join(room, 'Ana'));
    expect(client.frames.at(-1)).toMatchObject({ type: 'join_rejected', reason: 'rate_limited' });
    expect(Number(client.frames.at(-1)?.retryAfterMs)).toBeGreaterThan(0);
    expect(await seatsOf(room.id)).toEqual([]);
  });

  it('lets moderators into any room and others only where invited', () => {
    const room = roomOf(['x']);
    expect(mayJoin(personOf({ id: 'x' }), room)).toBe(true);
    expect(mayJoin(personOf({ id: 'y' }), room)).toBe(false);
    expect(mayJoin(teacherOf({ id: 'y' }), room)).toBe(true);
  });
});

import { randomUUID } from 'node:crypto';
import { ChatCloseCodes, ChatLiveMessages, type Chatroom } from '@district/contracts';
import { SessionStateStore } from '@district/nest-common';
import type { ChatroomsRepository } from '../../src/chatrooms/chatrooms.repository';
import type { Joining } from '../../src/live/joining';
import type { LiveConnection, LivePerson } from '../../src/live/live-connection';
import { LiveControl } from '../../src/live/live-control';
import { RoomDelivery } from '../../src/live/room-delivery';
import {
  capturedLogger,
  fakeClient,
  membershipOf,
  personOf,
  redisParts,
  teacherOf,
  type FakeClient,
} from './parts-bench';

const parts = redisParts();

/** LiveControl over the real session state and rooms, the rooms' rows from `table`, and the hub's sockets by person. */
function controlOver(table = new Map<string, Chatroom>()) {
  const rooms = new RoomDelivery(parts.pubsub, parts.store, capturedLogger().logger);
  const byUser = new Map<string, Set<LiveConnection>>();
  const sessions = new SessionStateStore(parts.store);
  const lookups: string[] = [];
  const chatrooms = {
    findById: (id: string) => {
      lookups.push(id);
      return Promise.resolve(table.get(id) ?? null);
    },
  } as unknown as ChatroomsRepository;
  let roomChanges = 0;
  // What the control asks of Joining: to count a room change, so joins on their way in read their room again.
  const joining = { roomChanged: () => (roomChanges += 1) } as unknown as Joining;
  const control = new LiveControl(sessions, chatrooms, rooms, joining, byUser);
  const connect = (person: LivePerson): FakeClient => {
    const client = fakeClient(person);
    const mine = byUser.get(person.id) ?? new Set();
    mine.add(client.c);
    byUser.set(person.id, mine);
    return client;
  };
  return { control, rooms, sessions, connect, lookups, changes: () => roomChanges };
}

const closedFor = (c: FakeClient) => c.closes.map((x) => x.code);

describe('LiveControl', () => {
  it('closes the sockets of a signed-out session, and only those', async () => {
    const { control, connect } = controlOver();
    const person = personOf();
    const out = connect(person);
    const otherTab = connect(person);
    const otherSession = connect({ ...person, sessionId: randomUUID() });
    await control.onControl({
      kind: 'session',
      userId: person.id.toUpperCase(),
      sessionId: person.sessionId,
    });
    expect(closedFor(out)).toEqual([ChatCloseCodes.sessionChanged]);
    expect(closedFor(otherTab)).toEqual([ChatCloseCodes.sessionChanged]);
    expect(out.frames).toEqual([
      { type: 'notice', code: 'session_changed', text: ChatLiveMessages.sessionChanged },
    ]);
    expect(closedFor(otherSession)).toEqual([]);
  });

  it('checks a changed person’s sockets against the session state, and closes all of a deleted person’s', async () => {
    const { control, sessions, connect } = controlOver();
    await sessions.markRestored();
    const changed = personOf();
    const kept = personOf();
    const deleted = personOf();
    for (const p of [changed, kept, deleted]) await sessions.setVersion(p.id, 1);
    await sessions.setVersion(changed.id, 2);
    const [a, b, c] = [connect(changed), connect(kept), connect(deleted)];
    await control.onControl({ kind: 'user', userId: changed.id, deleted: false });
    await control.onControl({ kind: 'user', userId: kept.id, deleted: false });
    expect(closedFor(a)).toEqual([ChatCloseCodes.sessionChanged]);
    expect(closedFor(b)).toEqual([]);
    // Deleted: closed whatever the store still says.
    await control.onControl({ kind: 'user', userId: deleted.id.toUpperCase(), deleted: true });
    expect(closedFor(c)).toEqual([ChatCloseCodes.sessionChanged]);
  });

  it('closes the members a changed room no longer admits, and counts the change for joins on their way in', async () => {
    const table = new Map<string, Chatroom>();
    const { control, rooms, connect, lookups, changes } = controlOver(table);
    const invited = personOf();
    const uninvited = personOf();
    const room: Chatroom = {
      id: randomUUID(),
      name: 'Room',
      description: '',
      invitedUserIds: [invited.id, uninvited.id],
      isActive: true,
      createdAt: new Date().toISOString(),
    };
    table.set(room.id, room);
    const members = [connect(invited), connect(uninvited), connect(teacherOf())];
    for (const m of members) {
      m.c.membership = membershipOf(room.id, randomUUID().slice(0, 8));
      await rooms.enterRoom(room.id, m.c);
    }
    table.set(room.id, { ...room, invitedUserIds: [invited.id] });
    await control.onControl({ kind: 'room', roomId: room.id });
    expect(members.map(closedFor)).toEqual([[], [ChatCloseCodes.roomClosed], []]);
    expect(members[1].frames).toEqual([
      { type: 'notice', code: 'room_closed', text: ChatLiveMessages.roomClosed, chatroom: room.id },
    ]);
    expect(changes()).toBe(1);

    table.set(room.id, { ...room, isActive: false });
    await control.onControl({ kind: 'room', roomId: room.id });
    expect(members.map(closedFor)).toEqual([
      [ChatCloseCodes.roomClosed],
      [ChatCloseCodes.roomClosed],
      [ChatCloseCodes.roomClosed],
    ]);

    // A room with no members here is not read, but the change still counts.
    const elsewhere = randomUUID();
    await control.onControl({ kind: 'room', roomId: elsewhere });
    expect(lookups).toEqual([room.id, room.id]);
    expect(changes()).toBe(3);
    for (const m of members) rooms.exitRoom(room.id, m.c);
  });
});

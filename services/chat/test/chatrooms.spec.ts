import { randomUUID } from 'node:crypto';
import {
  CHATROOM_DESCRIPTION_MAX,
  CHATROOM_MAX_INVITED,
  CHATROOM_NAME_MAX,
  ChatMessages,
  chatroomChangedEventSchema,
  chatroomListSchema,
  chatroomSchema,
  chatroomSummaryListSchema,
  Subjects,
  type Chatroom,
  type ChatroomSummary,
} from '@district/contracts';
import type { HttpClient } from '@district/nest-common/testing';
import { startChat, type ChatTestApp } from './support/chat-app';

let app: ChatTestApp;
let admin: HttpClient;
let counter = 0;

beforeAll(async () => {
  app = await startChat();
  admin = (await app.signIn('admin')).client;
});
afterAll(async () => {
  await app?.close();
});

const uniqueName = (label = 'Room') => `${label} ${++counter} ${Date.now().toString(36)}`;

async function createRoom(body: Record<string, unknown> = {}): Promise<Chatroom> {
  const res = await admin.post<Chatroom>('/api/admin/chatrooms', { name: uniqueName(), ...body });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
  return res.body;
}

async function roomsSeenBy(client: HttpClient): Promise<ChatroomSummary[]> {
  const res = await client.get<ChatroomSummary[]>('/api/chatrooms');
  expect(res.status).toBe(200);
  return chatroomSummaryListSchema.parse(res.body);
}

describe('managing chatrooms (admin)', () => {
  it('creates an active room with its description and invitees, deduplicated and in lower case', async () => {
    const student = randomUUID();
    const other = randomUUID();
    const res = await admin.post<Chatroom>('/api/admin/chatrooms', {
      name: '  Spanish 2  ',
      description: ' Period 3 ',
      invitedUserIds: [student.toUpperCase(), student, other, other],
    });
    expect(res.status).toBe(201);
    const room = chatroomSchema.parse(res.body);
    expect(room).toMatchObject({
      name: 'Spanish 2',
      description: 'Period 3',
      invitedUserIds: [student, other],
      isActive: true,
    });
    expect(Date.parse(room.createdAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('defaults the description and the invitees, and takes a null description as empty', async () => {
    expect(await createRoom({ description: undefined })).toMatchObject({
      description: '',
      invitedUserIds: [],
    });
    expect(await createRoom({ description: null })).toMatchObject({ description: '' });
  });

  it('lists every room newest first, inactive ones too, with their invitees', async () => {
    const first = await createRoom();
    const second = await createRoom({ isActive: false, invitedUserIds: [randomUUID()] });
    const res = await admin.get<Chatroom[]>('/api/admin/chatrooms');
    expect(res.status).toBe(200);
    const ids = chatroomListSchema.parse(res.body).map((r) => r.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expect(res.body.find((r) => r.id === second.id)).toEqual(second);
  });

  it('activates and deactivates a room (the screen sends isActive), and changes its other fields', async () => {
    const room = await createRoom();
    const off = await admin.put<Chatroom>(`/api/admin/chatrooms/${room.id}`, { isActive: false });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ ...room, isActive: false });
    const invitee = randomUUID();
    const edited = await admin.put<Chatroom>(`/api/admin/chatrooms/${room.id.toUpperCase()}`, {
      name: 'Renamed',
      description: 'New text',
      invitedUserIds: [invitee.toUpperCase()],
      isActive: true,
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toEqual({
      ...room,
      name: 'Renamed',
      description: 'New text',
      invitedUserIds: [invitee],
    });
  });

  it('deletes a room: 204, then not found', async () => {
    const room = await createRoom();
    expect((await admin.delete(`/api/admin/chatrooms/${room.id}`)).status).toBe(204);
    for (const res of [
      await admin.delete(`/api/admin/chatrooms/${room.id}`),
      await admin.put(`/api/admin/chatrooms/${room.id}`, { isActive: true }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ message: ChatMessages.chatroomNotFound });
    }
    const list = (await admin.get<Chatroom[]>('/api/admin/chatrooms')).body;
    expect(list.some((r) => r.id === room.id)).toBe(false);
  });

  it('answers unknown and malformed ids with 404 "Chatroom not found"', async () => {
    for (const id of [randomUUID(), 'not-a-uuid', '123', `${randomUUID()}x`, 'é']) {
      const put = await admin.put(`/api/admin/chatrooms/${encodeURIComponent(id)}`, { isActive: false });
      const del = await admin.delete(`/api/admin/chatrooms/${encodeURIComponent(id)}`);
      expect([id, put.status, put.body, del.status]).toEqual([
        id,
        404,
        expect.objectContaining({ message: ChatMessages.chatroomNotFound }),
        404,
      ]);
    }
  });
});

describe('validation (400 with a message, never a 500)', () => {
  const long = (n: number) => 'x'.repeat(n);
  const creates: ReadonlyArray<readonly [string, unknown, string]> = [
    ['no name', { description: 'x' }, ChatMessages.enterChatroomName],
    ['an empty body', undefined, ChatMessages.enterChatroomName],
    ['a blank name', { name: '   ' }, ChatMessages.enterChatroomName],
    ['a name that is not text', { name: 42 }, ChatMessages.enterChatroomName],
    ['a null name', { name: null }, ChatMessages.enterChatroomName],
    ['a name too long', { name: long(CHATROOM_NAME_MAX + 1) }, ChatMessages.chatroomNameTooLong],
    [
      'a description too long',
      { name: 'ok', description: long(CHATROOM_DESCRIPTION_MAX + 1) },
      ChatMessages.chatroomDescriptionTooLong,
    ],
    [
      'a description that is not text',
      { name: 'ok', description: 7 },
      ChatMessages.chatroomDescriptionNotText,
    ],
    [
      'invitees that are not a list',
      { name: 'ok', invitedUserIds: 'abc' },
      ChatMessages.invitedUserIdsNotAList,
    ],
    [
      'an invitee that is not an id',
      { name: 'ok', invitedUserIds: ['nobody'] },
      ChatMessages.invitedUserIdInvalid,
    ],
    ['an invitee that is not text', { name: 'ok', invitedUserIds: [7] }, ChatMessages.invitedUserIdInvalid],
    [
      'too many invitees',
      { name: 'ok', invitedUserIds: Array.from({ length: CHATROOM_MAX_INVITED + 1 }, () => randomUUID()) },
      ChatMessages.tooManyInvitedUsers,
    ],
    ['isActive that is not a boolean', { name: 'ok', isActive: 'yes' }, ChatMessages.isActiveNotBoolean],
    ['a list instead of an object', [{ name: 'ok' }], ChatMessages.chatroomBodyNotObject],
    ['a string instead of an object', '"Spanish"', ChatMessages.chatroomBodyNotObject],
    ['a NUL character', { name: 'a\u0000b' }, 'Text may not contain NUL characters'],
  ];

  it.each(creates)('refuses to create a room with %s', async (_, body, message) => {
    const res = await admin.post('/api/admin/chatrooms', body);
    expect([res.status, (res.body as { message?: string }).message]).toEqual([400, message]);
  });

  it('refuses malformed JSON with a 400 (the platform words it)', async () => {
    const res = await admin.post('/api/admin/chatrooms', '{"name": ');
    expect(res.status).toBe(400);
    expect((res.body as { message?: string }).message).toMatch(/JSON/);
  });

  it('accepts exactly the longest name and description, and the most invitees', async () => {
    const room = await createRoom({
      name: `${++counter}`.padEnd(CHATROOM_NAME_MAX, 'n'),
      description: long(CHATROOM_DESCRIPTION_MAX),
      invitedUserIds: Array.from({ length: CHATROOM_MAX_INVITED }, () => randomUUID()),
    });
    expect([room.name.length, room.description.length, room.invitedUserIds.length]).toEqual([
      CHATROOM_NAME_MAX,
      CHATROOM_DESCRIPTION_MAX,
      CHATROOM_MAX_INVITED,
    ]);
  });

  const updates: ReadonlyArray<readonly [string, unknown, string]> = [
    ['nothing to change', {}, ChatMessages.nothingToChange],
    ['only unknown fields', { active: false }, ChatMessages.nothingToChange],
    ['isActive that is not a boolean', { isActive: 'false' }, ChatMessages.isActiveNotBoolean],
    ['a blank name', { name: ' ' }, ChatMessages.enterChatroomName],
    ['an invitee that is not an id', { invitedUserIds: ['x'] }, ChatMessages.invitedUserIdInvalid],
    ['a list instead of an object', [true], ChatMessages.chatroomBodyNotObject],
  ];

  it.each(updates)('refuses an update with %s, and leaves the room as it was', async (_, body, message) => {
    const room = await createRoom();
    const res = await admin.put(`/api/admin/chatrooms/${room.id}`, body);
    expect([res.status, (res.body as { message?: string }).message]).toEqual([400, message]);
    const list = (await admin.get<Chatroom[]>('/api/admin/chatrooms')).body;
    expect(list.find((r) => r.id === room.id)).toEqual(room);
  });
});

describe('GET /api/chatrooms: the rooms each person may join', () => {
  let invited: { client: HttpClient; id: string };
  let bystander: HttpClient;
  let teacher: HttpClient;
  let pendingInvited: { client: HttpClient; id: string };
  let suspendedAdmin: { client: HttpClient; id: string };
  let unapprovedTeacher: HttpClient;
  let open: Chatroom;
  let closed: Chatroom;
  let forOthers: Chatroom;

  beforeAll(async () => {
    const student = await app.signIn('student');
    invited = { client: student.client, id: student.person.id };
    bystander = (await app.signIn('student')).client;
    teacher = (await app.signIn('teacher')).client;
    const pending = await app.signIn('pending');
    pendingInvited = { client: pending.client, id: pending.person.id };
    const suspended = await app.signIn('admin', { approved: false });
    suspendedAdmin = { client: suspended.client, id: suspended.person.id };
    unapprovedTeacher = (await app.signIn('pending', { role: 'teacher' })).client;
    // Invitees written in upper case: the stored ids are canonical, so the students still match.
    open = await createRoom({
      name: uniqueName('Open'),
      invitedUserIds: [invited.id.toUpperCase(), pendingInvited.id, suspendedAdmin.id],
    });
    closed = await createRoom({ name: uniqueName('Closed'), invitedUserIds: [invited.id], isActive: false });
    forOthers = await createRoom({ name: uniqueName('A room for others'), invitedUserIds: [randomUUID()] });
  });

  const ids = (rooms: ChatroomSummary[]) => rooms.map((r) => r.id);

  it('shows a student the active rooms they are invited to, and only those', async () => {
    const rooms = await roomsSeenBy(invited.client);
    expect(ids(rooms)).toEqual([open.id]);
    // Who else is invited is not shown to the people choosing a room.
    expect(rooms[0]).toEqual({ id: open.id, name: open.name, description: open.description });
    expect(await roomsSeenBy(bystander)).toEqual([]);
  });

  it('shows teachers and admins every active room, by name', async () => {
    for (const client of [teacher, admin]) {
      const seen = ids(await roomsSeenBy(client));
      expect(seen).toEqual(expect.arrayContaining([open.id, forOthers.id]));
      expect(seen).not.toContain(closed.id);
    }
    // By name ('A room…' before 'Open…', though made later).
    const seen = ids(await roomsSeenBy(teacher));
    expect(seen.indexOf(forOthers.id)).toBeLessThan(seen.indexOf(open.id));
  });

  it('gives unapproved accounts a student’s view: pending, a suspended admin, a teacher not yet approved', async () => {
    expect(ids(await roomsSeenBy(pendingInvited.client))).toEqual([open.id]);
    expect(ids(await roomsSeenBy(suspendedAdmin.client))).toEqual([open.id]);
    expect(await roomsSeenBy(unapprovedTeacher)).toEqual([]);
  });

  it('follows the admin’s changes at once: deactivating, reactivating and uninviting', async () => {
    await admin.put(`/api/admin/chatrooms/${open.id}`, { isActive: false });
    expect(await roomsSeenBy(invited.client)).toEqual([]);
    expect(ids(await roomsSeenBy(teacher))).not.toContain(open.id);
    await admin.put(`/api/admin/chatrooms/${open.id}`, { isActive: true });
    expect(ids(await roomsSeenBy(invited.client))).toEqual([open.id]);
    await admin.put(`/api/admin/chatrooms/${open.id}`, { invitedUserIds: [pendingInvited.id] });
    expect(await roomsSeenBy(invited.client)).toEqual([]);
  });

  it('refuses anyone not signed in', async () => {
    const res = await app.client().get('/api/chatrooms');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ message: 'Authentication Required' });
  });
});

describe('events', () => {
  it('publishes chat.room.created, .updated and .deleted through the outbox', async () => {
    const received: { subject: string; data: unknown }[] = [];
    const sub = await app.runtime.bus.subscribe(
      'chat.room.>',
      async (m) => void received.push({ subject: m.subject, data: m.data }),
      { durable: `test-${Date.now()}` },
    );
    const room = await createRoom({ invitedUserIds: [randomUUID()] });
    await admin.put(`/api/admin/chatrooms/${room.id}`, { isActive: false });
    await admin.delete(`/api/admin/chatrooms/${room.id}`);
    const mine = () => received.filter((r) => JSON.stringify(r.data).includes(room.id));
    const deadline = Date.now() + 5000;
    while (mine().length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await sub.unsubscribe();
    expect(mine().map((r) => r.subject)).toEqual([
      Subjects.chatRoomCreated,
      Subjects.chatRoomUpdated,
      Subjects.chatRoomDeleted,
    ]);
    expect(chatroomChangedEventSchema.parse(mine()[0].data).room).toEqual(room);
    expect(chatroomChangedEventSchema.parse(mine()[1].data).room).toEqual({ ...room, isActive: false });
    expect(mine()[2].data).toEqual({ roomId: room.id });
  });

  it('publishes nothing for a refused change', async () => {
    const before: { n: number }[] = await app.dataSource.query(`SELECT count(*)::int AS n FROM outbox`);
    await admin.post('/api/admin/chatrooms', { name: '' });
    await admin.put(`/api/admin/chatrooms/${randomUUID()}`, { isActive: true });
    await admin.delete(`/api/admin/chatrooms/${randomUUID()}`);
    const after: { n: number }[] = await app.dataSource.query(`SELECT count(*)::int AS n FROM outbox`);
    expect(after[0].n).toBe(before[0].n);
  });
});

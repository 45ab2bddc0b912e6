import { randomUUID } from 'node:crypto';
import {
  Subjects,
  chatroomChangedEventSchema,
  type Chatroom,
  type ChatroomSummary,
} from '@district/contracts';
import { waitFor, type HttpClient } from '@district/nest-common/testing';
import { USER_DELETED_CONSUMER } from '../src/users/user-events.consumer';
import { startChat, type ChatTestApp } from './support/chat-app';

let app: ChatTestApp;
let admin: HttpClient;

beforeAll(async () => {
  app = await startChat();
  admin = (await app.signIn('admin')).client;
});
afterAll(async () => {
  await app?.close();
});

async function createRoom(name: string, invitedUserIds: string[]): Promise<Chatroom> {
  const res = await admin.post<Chatroom>('/api/admin/chatrooms', { name, invitedUserIds });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
  return res.body;
}

async function room(id: string): Promise<Chatroom | undefined> {
  return (await admin.get<Chatroom[]>('/api/admin/chatrooms')).body.find((r) => r.id === id);
}

describe('identity.user.deleted', () => {
  it('takes the user off every invite list, once, with an updated event per room changed', async () => {
    const { client: student, person } = await app.signIn('student');
    const classmate = randomUUID();
    const first = await createRoom('Deleted user: first', [person.id, classmate]);
    const second = await createRoom('Deleted user: second', [classmate, person.id]);
    const untouched = await createRoom('Deleted user: untouched', [classmate]);
    expect((await student.get<ChatroomSummary[]>('/api/chatrooms')).body.map((r) => r.id).sort()).toEqual(
      [first.id, second.id].sort(),
    );

    const messageId = randomUUID();
    // In upper case, as any UUID may arrive: the rooms hold canonical ids.
    await app.runtime.bus.publish(
      Subjects.identityUserDeleted,
      { userId: person.id.toUpperCase() },
      { id: messageId },
    );
    await waitFor(
      async () => (await room(first.id))?.invitedUserIds.length === 1,
      'the first room to change',
    );
    await waitFor(
      async () => (await room(second.id))?.invitedUserIds.length === 1,
      'the second room to change',
    );
    expect((await room(first.id))?.invitedUserIds).toEqual([classmate]);
    expect((await room(second.id))?.invitedUserIds).toEqual([classmate]);
    expect(await room(untouched.id)).toEqual(untouched);

    const inbox: unknown[] = await app.dataSource.query(
      `SELECT 1 FROM inbox WHERE consumer = $1 AND message_id = $2`,
      [USER_DELETED_CONSUMER, messageId],
    );
    expect(inbox).toHaveLength(1);
    const updates = async () =>
      (
        (await app.dataSource.query(
          `SELECT payload FROM outbox WHERE subject = $1 AND payload->'room'->>'id' = ANY($2) ORDER BY seq`,
          [Subjects.chatRoomUpdated, [first.id, second.id, untouched.id]],
        )) as { payload: unknown }[]
      ).map((row) => chatroomChangedEventSchema.parse(row.payload).room);
    expect((await updates()).map((r) => [r.id, r.invitedUserIds])).toEqual(
      expect.arrayContaining([
        [first.id, [classmate]],
        [second.id, [classmate]],
      ]),
    );
    expect(await updates()).toHaveLength(2);

    // The same message again changes nothing more (the bus and the inbox both dedupe on its id).
    await app.runtime.bus.publish(Subjects.identityUserDeleted, { userId: person.id }, { id: messageId });
    await app.runtime.bus.publish(Subjects.identityUserDeleted, { userId: randomUUID() });
    await new Promise((r) => setTimeout(r, 300));
    expect(await updates()).toHaveLength(2);
  });

  it('leaves rooms alone when the deleted user was invited nowhere', async () => {
    const kept = await createRoom('Nobody deleted here', [randomUUID()]);
    const messageId = randomUUID();
    await app.runtime.bus.publish(Subjects.identityUserDeleted, { userId: randomUUID() }, { id: messageId });
    await waitFor(
      async () =>
        (
          (await app.dataSource.query(`SELECT 1 FROM inbox WHERE consumer = $1 AND message_id = $2`, [
            USER_DELETED_CONSUMER,
            messageId,
          ])) as unknown[]
        ).length === 1,
      'the event to be handled',
    );
    expect(await room(kept.id)).toEqual(kept);
  });
});

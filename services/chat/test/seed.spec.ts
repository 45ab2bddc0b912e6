import { demoAccount, Subjects, type Chatroom, type ChatroomSummary } from '@district/contracts';
import { SeedService } from '../src/seed/seed.service';
import { startChat, type ChatTestApp } from './support/chat-app';

let app: ChatTestApp;

beforeAll(async () => {
  app = await startChat({ demo: true });
});
afterAll(async () => {
  await app?.close();
});

it('seeds one active room, Spanish Practice, that the demo student is invited to', async () => {
  const { client: admin } = await app.signIn('admin');
  const rooms = (await admin.get<Chatroom[]>('/api/admin/chatrooms')).body;
  expect(rooms).toHaveLength(1);
  expect(rooms[0]).toMatchObject({
    name: 'Spanish Practice',
    isActive: true,
    invitedUserIds: [demoAccount('student').id],
  });

  const seen = async (key: 'student' | 'student2' | 'teacher') => {
    const account = demoAccount(key);
    const { client } = await app.signIn(key === 'teacher' ? 'teacher' : 'student', { id: account.id });
    return (await client.get<ChatroomSummary[]>('/api/chatrooms')).body.map((r) => r.name);
  };
  expect(await seen('student')).toEqual(['Spanish Practice']);
  expect(await seen('student2')).toEqual([]);
  expect(await seen('teacher')).toEqual(['Spanish Practice']);

  const events: unknown[] = await app.dataSource.query(`SELECT 1 FROM outbox WHERE subject = $1`, [
    Subjects.chatRoomCreated,
  ]);
  expect(events).toHaveLength(1);

  // A restart (or a second replica) adds nothing, and keeps the admin's edits.
  await admin.put(`/api/admin/chatrooms/${rooms[0].id}`, { description: 'Edited by the admin' });
  expect(await app.service.app.get(SeedService).seedDemoChatrooms()).toBe(0);
  const after = (await admin.get<Chatroom[]>('/api/admin/chatrooms')).body;
  expect(after.map((r) => [r.name, r.description])).toEqual([['Spanish Practice', 'Edited by the admin']]);
});

it('seeds nothing without demo data', async () => {
  const plain = await startChat();
  try {
    const { client: admin } = await plain.signIn('admin');
    expect((await admin.get('/api/admin/chatrooms')).body).toEqual([]);
  } finally {
    await plain.close();
  }
});

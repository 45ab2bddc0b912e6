import { randomUUID } from 'node:crypto';
import {
  ChatMessages,
  invitableUsersResponseSchema,
  Subjects,
  type InvitableUser,
  type UsersListReply,
} from '@district/contracts';
import type { BusSubscription } from '@district/nest-common';
import type { HttpClient } from '@district/nest-common/testing';
import { startChat, type ChatTestApp } from './support/chat-app';

/**
 * The invite list over the in-process bus, identity's side played here (the real identity answering over real
 * NATS is launcher/test/chat-invite-list.spec.ts: only the launcher may import two services).
 */
let app: ChatTestApp;
let admin: HttpClient;
let identity: BusSubscription | undefined;
const requests: Array<{ data: unknown; headers: Record<string, string> }> = [];

beforeAll(async () => {
  app = await startChat();
  admin = (await app.signIn('admin')).client;
});
afterEach(async () => {
  await identity?.unsubscribe();
  identity = undefined;
  requests.length = 0;
});
afterAll(async () => {
  await app?.close();
});

/** identity's answer, whatever it is. */
async function identityAnswers(answer: (data: unknown) => unknown): Promise<void> {
  identity = await app.runtime.bus.reply(
    Subjects.identityUsersList,
    async (data, headers) => {
      requests.push({ data, headers });
      return answer(data);
    },
    'identity',
  );
}

const user = (name: string, extra: Partial<UsersListReply['users'][number]> = {}) => ({
  id: randomUUID(),
  name,
  username: name.toLowerCase().replace(/\W+/g, '.'),
  role: 'student' as const,
  isAdmin: false,
  ...extra,
});

it('asks identity for everyone but administrators and answers them by name, without the admin flag', async () => {
  const zoe = user('Zoe Zamora');
  const ana = user('Ana Alvarez', { id: randomUUID().toUpperCase() });
  const teacher = user('Mia Teacher', { role: 'teacher' });
  // An administrator in the answer (an identity replica that ignored excludeAdmins) is still left out.
  await identityAnswers(() => ({ users: [zoe, ana, user('Head Admin', { isAdmin: true }), teacher] }));
  const res = await admin.get<InvitableUser[]>('/api/admin/chatrooms/invitable-users');
  expect(res.status).toBe(200);
  expect(invitableUsersResponseSchema.parse(res.body)).toEqual([
    { id: ana.id.toLowerCase(), name: ana.name, username: ana.username, role: 'student' },
    { id: teacher.id, name: teacher.name, username: teacher.username, role: 'teacher' },
    { id: zoe.id, name: zoe.name, username: zoe.username, role: 'student' },
  ]);
  expect(requests).toHaveLength(1);
  expect(requests[0].data).toEqual({ excludeAdmins: true, limit: 500 });
  // The request id travels with the request, so one trace spans both services.
  expect(requests[0].headers['x-request-id']).toEqual(expect.any(String));
});

it('asks page after page while identity says more may follow, and stops at an identity that does not page', async () => {
  const people = Array.from({ length: 5 }, (_, i) => user(`Person ${i}`)).sort((a, b) =>
    a.id.localeCompare(b.id),
  );
  await identityAnswers((data) => {
    const { after } = data as { after?: string };
    const rest = people.filter((p) => !after || p.id > after);
    const page = rest.slice(0, 2);
    return { users: page, next: rest.length > 2 ? page[page.length - 1].id : null };
  });
  const res = await admin.get<InvitableUser[]>('/api/admin/chatrooms/invitable-users');
  expect(res.body.map((u) => u.name)).toEqual(people.map((p) => p.name).sort());
  expect(requests.map((r) => (r.data as { after?: string }).after)).toEqual([
    undefined,
    people[1].id,
    people[3].id,
  ]);

  await identity?.unsubscribe();
  requests.length = 0;
  // An identity replica from before paging answers everyone, without `next`: one request.
  await identityAnswers(() => ({ users: people }));
  expect((await admin.get<InvitableUser[]>('/api/admin/chatrooms/invitable-users')).body).toHaveLength(5);
  expect(requests).toHaveLength(1);
});

it('answers an empty list when there is nobody to invite', async () => {
  await identityAnswers(() => ({ users: [] }));
  const res = await admin.get('/api/admin/chatrooms/invitable-users');
  expect([res.status, res.body]).toEqual([200, []]);
});

const failures: ReadonlyArray<readonly [string, ((data: unknown) => unknown) | undefined]> = [
  ['nobody answers', undefined],
  ['identity fails', () => Promise.reject(new Error('database down'))],
  ['the answer breaks the contract', () => ({ people: [] })],
  ['a user in the answer breaks the contract', () => ({ users: [{ id: 'x', name: 'No id' }] })],
];

it.each(failures)('answers 503 with Retry-After when %s', async (_, answer) => {
  if (answer) await identityAnswers(answer);
  const res = await admin.get('/api/admin/chatrooms/invitable-users');
  expect([res.status, (res.body as { message?: string }).message]).toEqual([
    503,
    ChatMessages.usersUnavailable,
  ]);
  expect(res.headers.get('retry-after')).toBe('2');
});

it('is for administrators only, before identity is asked', async () => {
  await identityAnswers(() => ({ users: [] }));
  const { client: teacher } = await app.signIn('teacher');
  const res = await teacher.get('/api/admin/chatrooms/invitable-users');
  expect(res.status).toBe(403);
  expect((await app.client().get('/api/admin/chatrooms/invitable-users')).status).toBe(401);
  expect(requests).toHaveLength(0);
});

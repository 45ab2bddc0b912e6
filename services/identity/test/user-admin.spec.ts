import {
  IdentityMessages,
  Subjects,
  userChangedEventSchema,
  userDeletedEventSchema,
  usersListReplySchema,
  type User,
} from '@district/contracts';
import type { BusMessage, BusSubscription } from '@district/nest-common';
import { startIdentity, type IdentityTestApp } from './support/identity-app';
import type { HttpClient } from '@district/nest-common/testing';
import { ADMIN, ADMIN_ENV, registerPerson, signInAdmin } from './support/people';

let app: IdentityTestApp;
let admin: HttpClient;
let adminId: string;
const events: BusMessage[] = [];
let subscription: BusSubscription;

beforeAll(async () => {
  app = await startIdentity({ env: ADMIN_ENV });
  subscription = await app.runtime.bus.subscribe(
    'identity.user.>',
    async (message) => {
      events.push(message);
    },
    { durable: 'identity-test-observer' },
  );
  admin = await signInAdmin(app);
  adminId = (await admin.get<User>('/api/auth/me')).body.id;
});
afterAll(async () => {
  await subscription?.unsubscribe();
  await app?.close();
});

async function eventually<T>(probe: () => T | undefined, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const eventFor = (subject: string, userId: string, change?: string) =>
  eventually(() =>
    events.find((e) => {
      if (e.subject !== subject) return false;
      const data = e.data as { user?: { id: string }; userId?: string; changed?: string[] };
      return (data.user?.id ?? data.userId) === userId && (!change || data.changed?.includes(change));
    }),
  );

describe('listing', () => {
  it('lists every user, newest first (ADR 0042), without passwords', async () => {
    const { user } = await registerPerson(app, admin, 'pending');
    const res = await admin.get<User[]>('/api/users');
    expect(res.status).toBe(200);
    expect(res.body[0].id).toBe(user.id);
    expect(res.body[res.body.length - 1].email).toBe(ADMIN.email);
    const created = res.body.map((u) => Date.parse(u.createdAt));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    expect(res.text).not.toMatch(/password/i);
  });

  it('answers identity.users.list on the bus, without admins when asked', async () => {
    const { user } = await registerPerson(app, admin, 'student');
    const all = usersListReplySchema.parse(await app.runtime.bus.request(Subjects.identityUsersList, {}));
    const noAdmins = usersListReplySchema.parse(
      await app.runtime.bus.request(Subjects.identityUsersList, { excludeAdmins: true }),
    );
    expect(all.users.map((u) => u.id)).toEqual(expect.arrayContaining([adminId, user.id]));
    expect(noAdmins.users.map((u) => u.id)).toContain(user.id);
    expect(noAdmins.users.some((u) => u.isAdmin)).toBe(false);
    expect(Object.keys(all.users[0]).sort()).toEqual(['id', 'isAdmin', 'name', 'role', 'username']);
  });

  it('answers identity.users.list in pages in id order when asked with a limit, so no answer outgrows a NATS message', async () => {
    for (let i = 0; i < 3; i++) await registerPerson(app, admin, 'student');
    const everyone = usersListReplySchema.parse(
      await app.runtime.bus.request(Subjects.identityUsersList, { excludeAdmins: true }),
    );
    const paged: string[] = [];
    let after: string | undefined;
    let pages = 0;
    do {
      const reply = usersListReplySchema.parse(
        await app.runtime.bus.request(Subjects.identityUsersList, {
          excludeAdmins: true,
          limit: 2,
          ...(after ? { after } : {}),
        }),
      );
      expect(reply.users.length).toBeLessThanOrEqual(2);
      expect(reply.users.some((u) => u.isAdmin)).toBe(false);
      paged.push(...reply.users.map((u) => u.id));
      after = reply.next ?? undefined;
      pages++;
    } while (after && pages < 50);
    expect(pages).toBeGreaterThan(1);
    expect(paged).toEqual([...paged].sort());
    expect(new Set(paged).size).toBe(paged.length);
    expect([...paged].sort()).toEqual(everyone.users.map((u) => u.id).sort());
  });
});

describe('creation', () => {
  it('publishes identity.user.created for a new account', async () => {
    const { user } = await registerPerson(app, admin, 'pending');
    const event = userChangedEventSchema.parse((await eventFor(Subjects.identityUserCreated, user.id)).data);
    expect(event).toEqual({ user, tokenVersion: 1, changed: ['created'] });
  });
});

describe('approval', () => {
  it('approves a pending user, whose next /me carries the approval; the event is relayed', async () => {
    const { client, user } = await registerPerson(app, admin, 'pending');
    const res = await admin.patch<User>(`/api/users/${user.id}/approval`, { approved: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: user.id, approved: true });

    const me = await client.get<User>('/api/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.approved).toBe(true);

    const event = userChangedEventSchema.parse(
      (await eventFor(Subjects.identityUserUpdated, user.id, 'approval')).data,
    );
    expect(event).toMatchObject({ changed: ['approval'], user: { id: user.id, approved: true } });
    // A subscriber can see the event before the relay has recorded the send, so wait briefly for that.
    const outboxRows = (): Promise<{ published_at: Date | null }[]> =>
      app.dataSource.query(
        `SELECT published_at FROM outbox WHERE subject = $1 AND payload -> 'user' ->> 'id' = $2`,
        [Subjects.identityUserUpdated, user.id],
      );
    let rows = await outboxRows();
    for (let i = 0; i < 50 && rows[0]?.published_at == null; i++) {
      await new Promise((r) => setTimeout(r, 50));
      rows = await outboxRows();
    }
    expect(rows).toHaveLength(1);
    expect(rows[0].published_at).not.toBeNull();
  });

  it('changes nothing (no new token version) when the state is already as asked', async () => {
    const { client, user } = await registerPerson(app, admin, 'admin');
    expect((await admin.patch(`/api/users/${user.id}/approval`, { approved: true })).status).toBe(200);
    expect((await client.get('/api/users')).status).toBe(200);
  });

  it('validates the body', async () => {
    const { user } = await registerPerson(app, admin, 'pending');
    const res = await admin.patch(`/api/users/${user.id}/approval`, { approved: 'yes' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: 'approved must be true or false' });
  });
});

describe('token versions', () => {
  it('refuses a demoted admin’s old token on the very next request, while /me refreshes it', async () => {
    const { client, user } = await registerPerson(app, admin, 'admin');
    expect((await client.get('/api/users')).status).toBe(200);

    expect((await admin.patch(`/api/users/${user.id}/admin`, { isAdmin: false })).status).toBe(200);
    const stale = await client.get('/api/users');
    expect(stale.status).toBe(401);
    expect(stale.body).toMatchObject({ message: IdentityMessages.authenticationRequired });

    const me = await client.get<User>('/api/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.isAdmin).toBe(false);
    const refreshed = await client.get('/api/users');
    expect(refreshed.status).toBe(403);
    expect(refreshed.body).toMatchObject({ message: IdentityMessages.adminRequired });
    await eventFor(Subjects.identityUserUpdated, user.id, 'admin');
  });

  it('changes the role and publishes it', async () => {
    const { client, user } = await registerPerson(app, admin, 'student');
    const res = await admin.patch<User>(`/api/users/${user.id}/role`, { role: 'teacher' });
    expect(res.body).toMatchObject({ role: 'teacher' });
    expect((await client.get<User>('/api/auth/me')).body.role).toBe('teacher');
    await eventFor(Subjects.identityUserUpdated, user.id, 'role');
  });

  it('keeps the shared session state in step with the database under concurrent changes', async () => {
    const { client, user } = await registerPerson(app, admin, 'admin');
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        admin.patch(`/api/users/${user.id}/role`, { role: i % 2 ? 'teacher' : 'student' }),
      ),
    );
    expect((await client.get('/api/auth/me')).status).toBe(200);
    expect((await client.get('/api/users')).status).toBe(200);
  });
});

describe('password reset', () => {
  it('sets the new password and ends every existing session of that user', async () => {
    const { client, user, password } = await registerPerson(app, admin, 'student');
    const res = await admin.put<User>(`/api/admin/users/${user.id}/password`, { newPassword: 'brand-new-1' });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(user.id);

    const me = await client.get('/api/auth/me');
    expect(me.status).toBe(401);
    expect(me.body).toMatchObject({ message: IdentityMessages.authenticationRequired });

    expect((await app.client().post('/api/auth/login', { email: user.email, password })).status).toBe(401);
    const fresh = app.client();
    expect((await fresh.post('/api/auth/login', { email: user.email, password: 'brand-new-1' })).status).toBe(
      200,
    );
    expect((await fresh.get('/api/auth/me')).status).toBe(200);
    await eventFor(Subjects.identityUserUpdated, user.id, 'password');
  });

  it.each([{ newPassword: '12345' }, {}])('refuses a short or missing password (400) %#', async (body) => {
    const { user } = await registerPerson(app, admin, 'student');
    const res = await admin.put(`/api/admin/users/${user.id}/password`, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: IdentityMessages.passwordTooShort });
  });
});

describe('delete', () => {
  it('deletes the user, whose sessions end at once, and publishes the deletion', async () => {
    const { client, user, password } = await registerPerson(app, admin, 'admin');
    const res = await admin.delete(`/api/users/${user.id}`);
    expect(res.status).toBe(204);

    expect((await client.get('/api/users')).status).toBe(401);
    expect((await client.get('/api/auth/me')).status).toBe(401);
    expect((await app.client().post('/api/auth/login', { email: user.email, password })).status).toBe(401);
    expect((await admin.delete(`/api/users/${user.id}`)).status).toBe(404);

    const event = userDeletedEventSchema.parse((await eventFor(Subjects.identityUserDeleted, user.id)).data);
    expect(event).toEqual({ userId: user.id });
  });
});

describe('self-protection', () => {
  const spellings = () => [adminId, adminId.toUpperCase(), mixedCase(adminId)];
  it.each([
    ['PATCH', 'admin', { isAdmin: false }, IdentityMessages.cannotChangeOwnAdmin],
    ['PATCH', 'role', { role: 'student' }, IdentityMessages.cannotChangeOwnRole],
    ['PATCH', 'approval', { approved: false }, IdentityMessages.cannotSuspendOwnAccount],
    ['DELETE', '', undefined, IdentityMessages.cannotDeleteOwnAccount],
  ])(
    'refuses an admin’s %s of their own %s (403), however the id is spelled',
    async (method, field, body, message) => {
      for (const id of spellings()) {
        const path = field ? `/api/users/${id}/${field}` : `/api/users/${id}`;
        const res = await admin.request(method, path, { body });
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ statusCode: 403, message });
        const me = await admin.get<User>('/api/auth/me');
        expect(me.body).toMatchObject({ isAdmin: true, approved: true, role: 'teacher' });
      }
    },
  );
});

function mixedCase(id: string): string {
  return [...id].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join('');
}

describe('non-canonical ids', () => {
  it('ends a demoted, deleted or reset user’s sessions whatever letter case the admin’s request used', async () => {
    const demoted = await registerPerson(app, admin, 'admin');
    expect(
      (await admin.patch(`/api/users/${demoted.user.id.toUpperCase()}/admin`, { isAdmin: false })).status,
    ).toBe(200);
    expect((await demoted.client.get('/api/users')).status).toBe(401);

    const reset = await registerPerson(app, admin, 'teacher');
    const path = `/api/admin/users/${mixedCase(reset.user.id)}/password`;
    expect((await admin.put(path, { newPassword: 'brand-new-2' })).status).toBe(200);
    expect((await reset.client.get('/api/auth/me')).status).toBe(401);
    expect((await reset.client.get('/api/users')).status).toBe(401);

    const deleted = await registerPerson(app, admin, 'student');
    expect((await admin.delete(`/api/users/${deleted.user.id.toUpperCase()}`)).status).toBe(204);
    expect((await deleted.client.get('/api/auth/me')).status).toBe(401);
    const event = userDeletedEventSchema.parse(
      (await eventFor(Subjects.identityUserDeleted, deleted.user.id)).data,
    );
    expect(event).toEqual({ userId: deleted.user.id });
  });

  it('refuses a NUL in an id with 400 and a NUL in a body with 400, never a 500', async () => {
    const { user } = await registerPerson(app, admin, 'student');
    expect((await admin.patch(`/api/users/${user.id}%00/role`, { role: 'teacher' })).status).toBe(400);
    const res = await app.client().post('/api/auth/register', {
      name: 'Nul\u0000Name',
      username: 'nulname',
      email: 'nul@school.test',
      password: 'password-1',
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400 });
  });
});

describe('suspension (ADR 0011)', () => {
  it('takes a suspended admin’s admin rights at once, and /me hands them no more than a pending account has', async () => {
    const { client, user, password } = await registerPerson(app, admin, 'admin');
    expect((await client.get('/api/users')).status).toBe(200);
    expect((await admin.patch(`/api/users/${user.id}/approval`, { approved: false })).status).toBe(200);

    expect((await client.get('/api/users')).status).toBe(401);
    const me = await client.get<User>('/api/auth/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ approved: false, isAdmin: false });
    const refused = await client.get('/api/users');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ message: IdentityMessages.adminRequired });

    // Signing in again gives the same: the stored flag stays (an admin sees it), the session does not hold it.
    const again = app.client();
    const login = await again.post<User>('/api/auth/login', { email: user.email, password });
    expect(login.body).toMatchObject({ approved: false, isAdmin: false });
    expect((await again.get('/api/users')).status).toBe(403);
    expect((await admin.get<User[]>('/api/users')).body.find((u) => u.id === user.id)).toMatchObject({
      isAdmin: true,
      approved: false,
    });
  });
});

describe('unknown users', () => {
  it.each([
    ['PATCH', '/approval', { approved: true }],
    ['PATCH', '/role', { role: 'teacher' }],
    ['PATCH', '/admin', { isAdmin: true }],
    ['DELETE', '', undefined],
  ])('answers 404 User not found to %s %s for an unknown or malformed id', async (method, suffix, body) => {
    for (const id of ['7d1c0d5e-8f57-4a43-9c55-8a0c2f0b6f11', 'not-a-uuid']) {
      const res = await admin.request(method, `/api/users/${id}${suffix}`, { body });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ statusCode: 404, message: IdentityMessages.userNotFound });
    }
  });

  it('answers 404 to a password reset for an unknown id', async () => {
    const res = await admin.put('/api/admin/users/not-a-uuid/password', { newPassword: 'long-enough' });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ message: IdentityMessages.userNotFound });
  });
});

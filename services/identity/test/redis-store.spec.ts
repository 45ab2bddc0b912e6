import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { IdentityMessages, LOGIN_FREE_FAILURES, type User } from '@district/contracts';
import { RedisEphemeralStore, SESSION_COOKIE } from '@district/nest-common';
import { startIdentity, type IdentityTestApp } from './support/identity-app';
import { ADMIN_ENV, newAccount, registerPerson, signInAdmin } from './support/people';

/**
 * The cluster keeps throttle counters, token versions, revoked sessions and pending OpenID sign-ins in Redis.
 * The same journeys as elsewhere, against the real Redis, under a key prefix of this run.
 */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `identity-test-${randomBytes(4).toString('hex')}:`;

let app: IdentityTestApp;
/** A runtime closes only the adapters it made itself: these Redis connections are this file's to close. */
const stores: RedisEphemeralStore[] = [];
const store = () => {
  const made = new RedisEphemeralStore(REDIS_URL, { prefix });
  stores.push(made);
  return made;
};

beforeAll(async () => {
  app = await startIdentity({ env: ADMIN_ENV, store: store() });
});
afterAll(async () => {
  await app?.close();
  // Left open, they keep jest's worker alive after the file ("failed to exit gracefully").
  for (const made of stores) await made.close();
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

it('delays an account and address pair with counters in Redis', async () => {
  const account = newAccount();
  await app.client().post('/api/auth/register', account);
  for (let i = 0; i < LOGIN_FREE_FAILURES; i++) {
    await app
      .client({ 'x-forwarded-for': '192.0.2.1' })
      .post('/api/auth/login', { email: account.email, password: 'nope-nope' });
  }
  // Even the right password waits while the pair is delayed.
  const res = await app.client({ 'x-forwarded-for': '192.0.2.1' }).post('/api/auth/login', account);
  expect(res.status).toBe(429);
  expect(res.body).toMatchObject({ message: IdentityMessages.tooManyAttempts });
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
});

it('refuses a stale token at once, refreshes it at /me, and revokes a signed-out session', async () => {
  const admin = await signInAdmin(app);
  const { client, user } = await registerPerson(app, admin, 'admin');
  expect((await client.get('/api/users')).status).toBe(200);

  await admin.patch(`/api/users/${user.id}/admin`, { isAdmin: false });
  expect((await client.get('/api/users')).status).toBe(401);
  expect((await client.get<User>('/api/auth/me')).body.isAdmin).toBe(false);

  await admin.post('/api/auth/logout');
  expect((await admin.get('/api/users')).status).toBe(401);
  const redis = new Redis(REDIS_URL);
  try {
    expect(await redis.get(`${prefix}auth:tv:${user.id}`)).toBe('4');
    expect(await redis.keys(`${prefix}auth:revoked:*`)).toHaveLength(1);
  } finally {
    await redis.quit();
  }
});

it('answers /me on a second replica with what the first changed, at once, though it keeps rows it has read', async () => {
  const other = await startIdentity({
    env: ADMIN_ENV,
    schema: app.schema,
    keepSchema: true,
    store: store(),
  });
  try {
    const admin = await signInAdmin(app);
    const { client, user } = await registerPerson(app, admin, 'teacher');
    const onOther = other.client();
    onOther.jar.set(onOther.baseUrl, SESSION_COOKIE, client.jar.get(client.baseUrl, SESSION_COOKIE) ?? '');
    // Read twice on the second replica: the second answer comes from the row it kept at this version.
    expect((await onOther.get<User>('/api/auth/me')).body).toMatchObject({ id: user.id, role: 'teacher' });
    expect((await onOther.get<User>('/api/auth/me')).body).toMatchObject({ id: user.id, role: 'teacher' });

    await admin.patch(`/api/users/${user.id}/role`, { role: 'student' });
    const me = await onOther.get<User>('/api/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.role).toBe('student');
    // The refreshed token names the new version: the row kept at the old one no longer answers.
    expect((await onOther.get<User>('/api/auth/me')).body.role).toBe('student');

    await admin.patch(`/api/users/${user.id}/approval`, { approved: false });
    expect((await onOther.get<User>('/api/auth/me')).body).toMatchObject({
      role: 'student',
      approved: false,
    });

    await admin.delete(`/api/users/${user.id}`);
    expect((await onOther.get('/api/auth/me')).status).toBe(401);
  } finally {
    await other.close();
  }
});

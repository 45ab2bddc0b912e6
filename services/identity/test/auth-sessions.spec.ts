import { IdentityMessages, userSchema, type User } from '@district/contracts';
import { MAX_SESSION_AGE_SECONDS, SESSION_COOKIE, TOKEN_TTL_SECONDS } from '@district/nest-common';
import type { SetCookie } from '@district/nest-common/testing';
import { startIdentity, type IdentityTestApp } from './support/identity-app';
import { ADMIN, ADMIN_ENV, newAccount, tokenClaims } from './support/people';
import { TOKEN_REFRESH_AFTER_SECONDS } from '../src/auth/auth.service';

let app: IdentityTestApp;

beforeAll(async () => {
  app = await startIdentity({ env: ADMIN_ENV });
});
afterAll(async () => {
  await app?.close();
});

const sessionCookie = (res: { setCookies: SetCookie[] }) =>
  res.setCookies.find((c) => c.name === SESSION_COOKIE);

describe('register', () => {
  it('creates an unapproved student, signs them in, and never returns the password', async () => {
    const client = app.client();
    const account = newAccount();
    const { role: _role, ...withoutRole } = account;
    const res = await client.post<User>('/api/auth/register', withoutRole);

    expect(res.status).toBe(201);
    expect(userSchema.strict().parse(res.body)).toMatchObject({
      name: account.name,
      username: account.username,
      email: account.email,
      role: 'student',
      approved: false,
      isAdmin: false,
      profileImage: null,
    });
    expect(res.text).not.toMatch(/password/i);
    expect(res.headers.get('cache-control')).toBe('no-store');

    const me = await client.get<User>('/api/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(res.body.id);
  });

  it('accepts the teacher role and normalises the email', async () => {
    const account = newAccount({ role: 'teacher' });
    const res = await app
      .client()
      .post<User>('/api/auth/register', { ...account, email: `  ${account.email.toUpperCase()} ` });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ role: 'teacher', email: account.email });
  });

  it('sets the session cookie HttpOnly, SameSite=Lax, Path=/, for the token lifetime, not Secure over plain HTTP', async () => {
    const res = await app.client().post('/api/auth/register', newAccount());
    const cookie = sessionCookie(res);
    expect(cookie?.attributes).toEqual({
      'max-age': String(TOKEN_TTL_SECONDS),
      path: '/',
      httponly: true,
      samesite: 'Lax',
    });
  });

  it('marks the cookie Secure when the request came over TLS (X-Forwarded-Proto from the gateway)', async () => {
    const res = await app.client({ 'x-forwarded-proto': 'https' }).post('/api/auth/register', newAccount());
    expect(sessionCookie(res)?.attributes.secure).toBe(true);
  });

  it('refuses a taken email or username, ignoring case (409)', async () => {
    const first = newAccount();
    expect((await app.client().post('/api/auth/register', first)).status).toBe(201);

    const sameEmail = await app
      .client()
      .post('/api/auth/register', newAccount({ email: first.email.toUpperCase() }));
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body).toMatchObject({ statusCode: 409, message: IdentityMessages.emailTaken });
    expect(sameEmail.setCookies).toEqual([]);

    const sameUsername = await app
      .client()
      .post('/api/auth/register', newAccount({ username: first.username.toUpperCase() }));
    expect(sameUsername.status).toBe(409);
    expect(sameUsername.body).toMatchObject({ message: IdentityMessages.usernameTaken });
  });

  it('lets exactly one of several racing registrations of one email win; the rest get the 409 message', async () => {
    const email = newAccount().email;
    const results = await Promise.all(
      Array.from({ length: 6 }, () => app.client().post('/api/auth/register', newAccount({ email }))),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const loser of results.filter((r) => r.status !== 201)) {
      expect(loser.status).toBe(409);
      expect(loser.body).toMatchObject({ message: IdentityMessages.emailTaken });
    }
  });

  it.each([
    [{ ...newAccount(), name: '  ' }, 'Full name is required'],
    [{ ...newAccount(), username: undefined }, 'Username is required'],
    [
      { ...newAccount(), username: 'no spaces please' },
      'Username may contain only letters, digits, dots, hyphens and underscores',
    ],
    [{ ...newAccount(), email: 'not-an-email' }, 'Please enter a valid email address'],
    [{ ...newAccount(), password: '12345' }, IdentityMessages.passwordTooShort],
    [{ ...newAccount(), role: 'principal' }, undefined],
  ])('answers 400 with a message for invalid input %#', async (body, message) => {
    const res = await app.client().post<{ statusCode: number; message: string }>('/api/auth/register', body);
    expect(res.status).toBe(400);
    expect(res.body.statusCode).toBe(400);
    if (message) expect(res.body.message).toBe(message);
    else expect(res.body.message).toEqual(expect.any(String));
  });

  it('answers 400, not 500, to a body that is not JSON', async () => {
    const res = await app.client().request('POST', '/api/auth/register', {
      body: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, message: expect.stringMatching(/JSON/) });
  });
});

describe('login', () => {
  const account = newAccount();
  let userId: string;

  beforeAll(async () => {
    userId = (await app.client().post<User>('/api/auth/register', account)).body.id;
  });

  it('signs in with the right password (email case ignored) and answers the user', async () => {
    const client = app.client();
    const res = await client.post<User>('/api/auth/login', {
      email: account.email.toUpperCase(),
      password: account.password,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: userId, email: account.email });
    expect(res.text).not.toMatch(/password/i);
    expect(sessionCookie(res)?.attributes).toMatchObject({ httponly: true, samesite: 'Lax', path: '/' });
    expect((await client.get<User>('/api/auth/me')).body.id).toBe(userId);
  });

  it('gives the same 401 for a wrong password and for an unknown email', async () => {
    const wrong = await app
      .client()
      .post('/api/auth/login', { email: account.email, password: 'wrong-password' });
    const unknown = await app
      .client()
      .post('/api/auth/login', { email: 'nobody@school.test', password: 'wrong-password' });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ statusCode: 401, message: IdentityMessages.invalidCredentials });
      expect(res.setCookies).toEqual([]);
    }
  });

  it('validates the body (400)', async () => {
    const res = await app.client().post('/api/auth/login', { email: account.email });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: 'Password is required' });
  });

  it('starts a new session id at every sign-in (rotation)', async () => {
    const client = app.client();
    const first = sessionCookie(await client.post('/api/auth/login', account))?.value;
    const second = sessionCookie(await client.post('/api/auth/login', account))?.value;
    expect(tokenClaims(first).sid).not.toBe(tokenClaims(second).sid);
    expect(tokenClaims(first).sub).toBe(tokenClaims(second).sub);
  });
});

describe('me', () => {
  it('keeps a fresh token, and re-issues it for the same session with a later expiry once it is ten minutes old', async () => {
    const client = app.client();
    const login = await client.post('/api/auth/login', ADMIN);
    const before = tokenClaims(sessionCookie(login)?.value);

    const fresh = await client.get<User>('/api/auth/me');
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('cache-control')).toBe('no-store');
    expect(sessionCookie(fresh)).toBeUndefined();

    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now + (TOKEN_REFRESH_AFTER_SECONDS + 60) * 1000);
    let me: Awaited<ReturnType<typeof client.get<User>>>;
    try {
      me = await client.get<User>('/api/auth/me');
    } finally {
      clock.mockRestore();
    }
    expect(me.status).toBe(200);
    const after = tokenClaims(sessionCookie(me)?.value);
    expect(after.sid).toBe(before.sid);
    expect(after.exp as number).toBeGreaterThan(before.exp as number);
    expect(sessionCookie(me)?.attributes).toMatchObject({
      httponly: true,
      'max-age': String(TOKEN_TTL_SECONDS),
    });
  });

  it.each([
    ['no cookie', undefined],
    ['a malformed token', 'not-a-token'],
    ['a token signed by someone else', forgedToken()],
  ])('answers 401 Authentication Required and clears the cookie with %s', async (_label, token) => {
    const client = app.client();
    if (token) client.jar.set(client.baseUrl, SESSION_COOKIE, token);
    const res = await client.get('/api/auth/me');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ statusCode: 401, message: IdentityMessages.authenticationRequired });
    expect(sessionCookie(res)?.value).toBe('');
    expect(sessionCookie(res)?.attributes).toMatchObject({ path: '/', httponly: true });
  });
});

describe('logout', () => {
  it('clears the cookie and revokes the session everywhere, even for a copy of the token', async () => {
    const client = app.client();
    const token = sessionCookie(await client.post('/api/auth/login', ADMIN))?.value as string;
    expect((await client.get('/api/users')).status).toBe(200);

    const res = await client.post('/api/auth/logout');
    expect(res.status).toBe(204);
    expect(sessionCookie(res)?.value).toBe('');

    const thief = app.client();
    thief.jar.set(thief.baseUrl, SESSION_COOKIE, token);
    expect((await thief.get('/api/auth/me')).status).toBe(401);
    expect((await thief.get('/api/users')).status).toBe(401);
  });

  it('leaves other sessions of the same user alone', async () => {
    const laptop = app.client();
    const phone = app.client();
    await laptop.post('/api/auth/login', ADMIN);
    await phone.post('/api/auth/login', ADMIN);
    await laptop.post('/api/auth/logout');
    expect((await phone.get('/api/users')).status).toBe(200);
  });

  it('answers 204 without a session', async () => {
    const res = await app.client().post('/api/auth/logout');
    expect(res.status).toBe(204);
  });
});

describe('absolute session lifetime (ADR 0011)', () => {
  const at = async <T>(offsetSeconds: number, work: () => Promise<T>): Promise<T> => {
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now + offsetSeconds * 1000);
    try {
      return await work();
    } finally {
      clock.mockRestore();
    }
  };

  it('carries the sign-in time into every refresh, never sliding past its end', async () => {
    const client = app.client();
    const first = tokenClaims(sessionCookie(await client.post('/api/auth/login', ADMIN))?.value);
    expect(first.sst).toBe(first.iat);

    // An active user refreshes every few hours; the last refresh before the end is cut to the end.
    for (const hours of [7, 14, 21])
      expect((await at(hours * 3600, () => client.get('/api/auth/me'))).status).toBe(200);
    const me = await at(MAX_SESSION_AGE_SECONDS - 60 * 60, () => client.get('/api/auth/me'));
    expect(me.status).toBe(200);
    const refreshed = tokenClaims(sessionCookie(me)?.value);
    expect(refreshed.sid).toBe(first.sid);
    expect(refreshed.sst).toBe(first.sst);
    expect(refreshed.exp).toBe((first.sst as number) + MAX_SESSION_AGE_SECONDS);
    expect(Number(sessionCookie(me)?.attributes['max-age'])).toBeLessThanOrEqual(60 * 60);

    const over = await at(MAX_SESSION_AGE_SECONDS + 5, () => client.get('/api/auth/me'));
    expect(over.status).toBe(401);
    expect((await at(MAX_SESSION_AGE_SECONDS + 5, () => client.get('/api/users'))).status).toBe(401);
  });

  it('keeps a sign-out for the whole session lifetime, so a refreshed copy outliving the signed-out token is refused too', async () => {
    const client = app.client();
    const original = sessionCookie(await client.post('/api/auth/login', ADMIN))?.value as string;
    const claims = tokenClaims(original);
    const copy = app.client();
    copy.jar.set(copy.baseUrl, SESSION_COOKIE, original);
    await at(TOKEN_REFRESH_AFTER_SECONDS + 60, () => copy.get('/api/auth/me'));
    expect(copy.jar.get(copy.baseUrl, SESSION_COOKIE)).not.toBe(original);

    await client.post('/api/auth/logout');
    const ttl = await app.runtime.store.pttl(`auth:revoked:${claims.sid as string}`);
    const sessionLeft = ((claims.sst as number) + MAX_SESSION_AGE_SECONDS) * 1000 - Date.now();
    expect(ttl).toBeGreaterThan(sessionLeft - 5000);
    expect(ttl).toBeGreaterThan(TOKEN_TTL_SECONDS * 1000 + 60_000);
    expect((await copy.get('/api/users')).status).toBe(401);
  });

  it('survives the shared store losing everything: sign-outs and versions come back from the database', async () => {
    const signedOut = app.client();
    const token = sessionCookie(await signedOut.post('/api/auth/login', ADMIN))?.value as string;
    const sid = tokenClaims(token).sid as string;
    await signedOut.post('/api/auth/logout');
    const active = app.client();
    const activeToken = sessionCookie(await active.post('/api/auth/login', ADMIN))?.value as string;
    const userId = tokenClaims(activeToken).sub as string;

    // What a restart of the store leaves: nothing at all.
    for (const key of ['auth:state:warmed', `auth:revoked:${sid}`, `auth:tv:${userId}`])
      await app.runtime.store.del(key);
    const deadline = Date.now() + 10_000;
    while (!(await app.runtime.store.get('auth:state:warmed')) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));

    const thief = app.client();
    thief.jar.set(thief.baseUrl, SESSION_COOKIE, token);
    expect((await thief.get('/api/users')).status).toBe(401);
    expect((await thief.get('/api/auth/me')).status).toBe(401);
    expect((await active.get('/api/users')).status).toBe(200);
  });
});

/** A well-formed ES256 token from a key identity does not hold. */
function forgedToken(): string {
  const { generateKeyPairSync, sign } = jest.requireActual<typeof import('node:crypto')>('node:crypto');
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const input = `${encode({ alg: 'ES256' })}.${encode({
    sub: '00000000-0000-4000-8000-00000000d001',
    sid: 'forged',
    tv: 1,
    role: 'teacher',
    approved: true,
    isAdmin: true,
    name: 'Mallory',
    username: 'mallory',
    email: 'mallory@evil.test',
    iss: 'district-identity',
    iat: now,
    exp: now + 600,
  })}`;
  const signature = sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

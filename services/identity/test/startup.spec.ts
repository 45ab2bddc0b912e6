import { DEMO_ACCOUNTS, IdentityMessages, type User } from '@district/contracts';
import { ConfigError, SESSION_COOKIE, startService } from '@district/nest-common';
import {
  createTestRuntime,
  dropSchema,
  TEST_DATABASE_URL,
  uniqueSchema,
  type HttpClient,
} from '@district/nest-common/testing';
import { defineIdentityService } from '../src';
import { startIdentity, type IdentityTestApp } from './support/identity-app';
import { ADMIN, ADMIN_ENV, newAccount } from './support/people';

const demo = (key: string) => DEMO_ACCOUNTS.find((a) => a.key === key) as (typeof DEMO_ACCOUNTS)[number];

/** The demo administrator signs in with the password: there is no shortcut for administrators. */
async function signInDemoAdmin(client: HttpClient): Promise<void> {
  const res = await client.post('/api/auth/login', { email: demo('admin').email, password: 'district-demo' });
  if (res.status !== 200) throw new Error(`admin sign-in failed: ${res.status} ${res.text}`);
}

/**
 * The demo accounts as GET /api/users lists them (newest first, ADR 0042), among the demo district's pupils: one
 * page of 500 holds the whole demo district.
 */
async function demoAccountsListed(client: HttpClient): Promise<User[]> {
  const emails = new Set<string>(DEMO_ACCOUNTS.map((a) => a.email));
  return (await client.get<User[]>('/api/users?limit=500')).body.filter((u) => emails.has(u.email));
}

describe('demo district', () => {
  const schema = uniqueSchema('identity');
  let app: IdentityTestApp;

  beforeAll(async () => {
    app = await startIdentity({
      demo: true,
      schema,
      keepSchema: true,
      env: { DEMO_PASSWORD: 'district-demo' },
    });
  });
  afterAll(async () => {
    await app?.close();
    await dropSchema(TEST_DATABASE_URL, schema);
  });

  it('seeds the demo accounts with the configured password', async () => {
    const admin = app.client();
    expect(
      (await admin.post('/api/auth/login', { email: demo('admin').email, password: 'district-demo' })).status,
    ).toBe(200);
    const users = await demoAccountsListed(admin);
    expect(
      users.map(({ id, name, username, email, role, approved, isAdmin }) => ({
        id,
        name,
        username,
        email,
        role,
        approved,
        isAdmin,
      })),
      // Newest first (ADR 0042); the seed creates them in DEMO_ACCOUNTS's order.
    ).toEqual(DEMO_ACCOUNTS.map(({ key: _key, ...account }) => account).reverse());
    expect(users.find((u) => u.email === 'admin@demo.school')).toMatchObject({
      name: 'Alex Admin',
      role: 'teacher',
      isAdmin: true,
    });
    expect(users.find((u) => u.email === 'pending@demo.school')).toMatchObject({
      name: 'Pat Pending',
      approved: false,
    });
  });

  it('does not duplicate or reset them on a second start, and keeps changes made since', async () => {
    const admin = app.client();
    await signInDemoAdmin(admin);
    expect((await admin.patch(`/api/users/${demo('pending').id}/approval`, { approved: true })).status).toBe(
      200,
    );
    await app.close();

    app = await startIdentity({
      demo: true,
      schema,
      keepSchema: true,
      env: { DEMO_PASSWORD: 'district-demo' },
    });
    const again = app.client();
    await signInDemoAdmin(again);
    const users = await demoAccountsListed(again);
    expect(users).toHaveLength(DEMO_ACCOUNTS.length);
    expect(users.find((u) => u.id === demo('pending').id)?.approved).toBe(true);
  });

  it('refuses a token made stale before a restart: the fresh session state is warmed from the database', async () => {
    const admin = app.client();
    await signInDemoAdmin(admin);
    await admin.patch(`/api/users/${demo('teacher').id}/admin`, { isAdmin: true });
    // With the password: quick sign-in never signs in an administrator, and the teacher is one now.
    const teacher = app.client();
    await teacher.post('/api/auth/login', { email: demo('teacher').email, password: 'district-demo' });
    expect((await teacher.get('/api/users')).status).toBe(200);
    await admin.patch(`/api/users/${demo('teacher').id}/admin`, { isAdmin: false });
    const staleToken = teacher.jar.get(teacher.baseUrl, SESSION_COOKIE) as string;
    const adminToken = admin.jar.get(admin.baseUrl, SESSION_COOKIE) as string;
    await app.close();

    // A new runtime: its session store starts empty, as after a restart of a standalone process.
    app = await startIdentity({
      demo: true,
      schema,
      keepSchema: true,
      env: { DEMO_PASSWORD: 'district-demo' },
    });
    const withToken = (token: string) => {
      const client = app.client();
      client.jar.set(client.baseUrl, SESSION_COOKIE, token);
      return client;
    };
    expect((await withToken(adminToken).get('/api/users')).status).toBe(200);
    expect((await withToken(staleToken).get('/api/users')).status).toBe(401);
    const refreshed = await withToken(staleToken).get<User>('/api/auth/me');
    expect(refreshed.body).toMatchObject({ id: demo('teacher').id, isAdmin: false });
  });

  describe('quick-login', () => {
    it.each([
      [{}, 'teacher'],
      [{ type: 'student' }, 'student'],
      [{ email: 'Student2@demo.school' }, 'student2'],
    ])('signs in as the demo account %j', async (body, key) => {
      const client = app.client();
      const res = await client.post<User>('/api/auth/quick-login', body);
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(demo(key).id);
      expect((await client.get<User>('/api/auth/me')).body.id).toBe(demo(key).id);
    });

    it('never signs in by an arbitrary email', async () => {
      const account = newAccount();
      await app.client().post('/api/auth/register', account);
      const res = await app.client().post('/api/auth/quick-login', { email: account.email });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ message: IdentityMessages.quickLoginDemoOnly });
      expect(res.setCookies).toEqual([]);
    });

    it('never offers the administrator: not by type, not by email, not a demo account since promoted', async () => {
      for (const body of [
        { type: 'admin' },
        { email: demo('admin').email },
        { email: 'ADMIN@demo.school' },
      ]) {
        const res = await app.client().post('/api/auth/quick-login', body);
        expect([400, 403]).toContain(res.status);
        expect(res.setCookies).toEqual([]);
      }
      expect((await app.client().get('/api/auth/quick-login?type=admin')).status).toBe(400);
      const admin = app.client();
      await signInDemoAdmin(admin);
      await admin.patch(`/api/users/${demo('student2').id}/admin`, { isAdmin: true });
      const promoted = await app.client().post('/api/auth/quick-login', { email: demo('student2').email });
      expect(promoted.status).toBe(403);
      expect(promoted.setCookies).toEqual([]);
      await admin.patch(`/api/users/${demo('student2').id}/admin`, { isAdmin: false });
    });

    it('GET only asks: a page whose same-origin form POST signs in and goes on to /listen-to-type', async () => {
      const client = app.client();
      const page = await client.get('/api/auth/quick-login?type=student');
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.setCookies).toEqual([]);
      expect(page.text).toContain('<form method="post" action="/api/auth/quick-login">');
      expect(page.text).toContain('name="type" value="student"');
      expect((await client.get('/api/auth/me')).status).toBe(401);

      const posted = await client.post('/api/auth/quick-login', undefined, {
        form: { type: 'student' },
        headers: { 'sec-fetch-site': 'same-origin' },
      });
      expect(posted.status).toBe(303);
      expect(posted.headers.get('location')).toBe('/listen-to-type');
      expect((await client.get<User>('/api/auth/me')).body.id).toBe(demo('student').id);
    });

    it('refuses a cross-site POST by Fetch Metadata, form or JSON', async () => {
      for (const options of [
        { form: { type: 'teacher' }, headers: { 'sec-fetch-site': 'cross-site' } },
        { headers: { 'sec-fetch-site': 'same-site' } },
      ]) {
        const client = app.client();
        const res = await client.post(
          '/api/auth/quick-login',
          options.form ? undefined : { type: 'teacher' },
          options,
        );
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ message: IdentityMessages.crossSiteRefused });
        expect(res.setCookies).toEqual([]);
      }
    });

    it('rejects an unknown type (400)', async () => {
      expect((await app.client().get('/api/auth/quick-login?type=principal')).status).toBe(400);
      expect((await app.client().post('/api/auth/quick-login', { type: 'principal' })).status).toBe(400);
    });
  });
});

describe('a site without demo accounts and without an OpenID provider', () => {
  let app: IdentityTestApp;

  beforeAll(async () => {
    app = await startIdentity({ demo: false, env: ADMIN_ENV });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers 404 Not found to the quick-login shortcuts, whatever the body', async () => {
    for (const res of [
      await app.client().post('/api/auth/quick-login', { type: 'admin' }),
      await app.client().post('/api/auth/quick-login', { type: 'nonsense' }),
      await app.client().get('/api/auth/quick-login?type=teacher'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ statusCode: 404, message: IdentityMessages.quickLoginDisabled });
      expect(res.setCookies).toEqual([]);
    }
    const users = await app.dataSource.query(`SELECT 1 FROM users WHERE email LIKE '%@demo.school'`);
    expect(users).toHaveLength(0);
  });

  it('tells the web app that only email sign-in exists here, so it never links to the page below', async () => {
    const res = await app.client().get('/api/auth/sign-in-methods');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ password: true, thirdParty: false });
  });

  it('explains that the third-party sign-in is not configured, with a link home', async () => {
    const res = await app.client().get('/api/auth/google');
    expect(res.status).toBe(501);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toContain(IdentityMessages.oidcNotConfigured);
    expect(res.text).toContain('<a href="/">');
  });

  it('bootstraps the administrator from ADMIN_EMAIL / ADMIN_PASSWORD', async () => {
    const admin = app.client();
    const res = await admin.post<User>('/api/auth/login', ADMIN);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: ADMIN.email, name: 'Head Admin', isAdmin: true, approved: true });
  });
});

describe('the bootstrap administrator on an existing account', () => {
  it('promotes it to an approved admin without touching its password', async () => {
    const schema = uniqueSchema('identity');
    const account = newAccount();
    let app = await startIdentity({ schema, keepSchema: true });
    try {
      expect((await app.client().post('/api/auth/register', account)).status).toBe(201);
      await app.close();
      app = await startIdentity({
        schema,
        keepSchema: true,
        env: { ADMIN_EMAIL: account.email, ADMIN_PASSWORD: 'a-different-one' },
      });
      expect(
        (await app.client().post('/api/auth/login', { email: account.email, password: 'a-different-one' }))
          .status,
      ).toBe(401);
      const res = await app.client().post<User>('/api/auth/login', account);
      expect(res.body).toMatchObject({ isAdmin: true, approved: true });
    } finally {
      await app.close();
      await dropSchema(TEST_DATABASE_URL, schema);
    }
  });
});

describe('configuration', () => {
  it('refuses to start with every configuration problem listed at once', async () => {
    const runtime = createTestRuntime({
      env: {
        OIDC_ISSUER: 'http://issuer.test',
        ADMIN_EMAIL: 'not-an-email',
        DEMO_PASSWORD: '123',
        OIDC_ALLOW_INSECURE_ISSUER: 'perhaps',
      },
    });
    try {
      const start = startService(defineIdentityService({ schema: uniqueSchema('identity') }), runtime, {
        port: 0,
        host: '127.0.0.1',
      });
      await expect(start).rejects.toThrow(ConfigError);
      const message = await start.catch((error: Error) => error.message);
      expect(message).toContain('OIDC_CLIENT_ID: is required when OIDC_ISSUER is set');
      expect(message).toContain('ADMIN_EMAIL: Please enter a valid email address');
      expect(message).toContain('DEMO_PASSWORD: must be at least 6 characters (got "***")');
      expect(message).toContain('OIDC_ALLOW_INSECURE_ISSUER: must be true or false');
    } finally {
      await runtime.dispose();
    }
  });
});

import { IdentityMessages, type User } from '@district/contracts';
import { SESSION_COOKIE } from '@district/nest-common';
import { startIdentity, type IdentityTestApp } from './support/identity-app';
import type { HttpClient } from '@district/nest-common/testing';
import { newAccount } from './support/people';
import {
  signInAtProvider,
  startOidcProvider,
  type ProviderAccount,
  type TestOidcProvider,
} from './support/oidc-provider';

/** The site's public address (the gateway's); the test client routes it to identity. */
const PUBLIC_URL = 'http://localhost:3000';
const CALLBACK = `${PUBLIC_URL}/api/auth/google/callback`;

let provider: TestOidcProvider;
let app: IdentityTestApp;
let subjectSeq = 0;

beforeAll(async () => {
  // oidc-provider warns about its development-only login screens (what a test wants) and about Node 20.
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  provider = await startOidcProvider(CALLBACK);
  app = await startIdentity({
    publicUrl: PUBLIC_URL,
    env: {
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      OIDC_ALLOW_INSECURE_ISSUER: 'true',
    },
  });
});
afterAll(async () => {
  await app?.close();
  await provider?.close();
});

function providerAccount(account: ProviderAccount): string {
  const subject = `subject-${++subjectSeq}-${Date.now()}`;
  provider.accounts.set(subject, account);
  return subject;
}

const isBackAtSite = (url: URL) => url.origin === PUBLIC_URL;

/** The whole journey: the sign-in link, the provider's screens, and the callback. Returns the callback's answer. */
async function signInWithProvider(browser: HttpClient, subject: string) {
  const start = await browser.get('/api/auth/google');
  expect(start.status).toBe(302);
  const pending = start.setCookies.find((c) => c.name === 'district_oidc');
  expect(pending?.attributes).toMatchObject({ httponly: true, samesite: 'Lax', path: '/api/auth/google' });

  const authorization = new URL(start.headers.get('location') as string);
  expect(authorization.origin).toBe(provider.issuer);
  expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorization.searchParams.get('redirect_uri')).toBe(CALLBACK);
  for (const param of ['state', 'nonce', 'code_challenge'])
    expect(authorization.searchParams.get(param)).toBeTruthy();

  const back = await signInAtProvider(browser, authorization.href, subject, isBackAtSite);
  const callbackUrl = new URL(back.headers.get('location') as string);
  expect(callbackUrl.href.startsWith(CALLBACK)).toBe(true);
  return browser.request('GET', callbackUrl.href);
}

it('tells the web app that the third-party sign-in is offered here', async () => {
  const res = await app.client().get('/api/auth/sign-in-methods');
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ password: true, thirdParty: true });
  expect(res.headers.get('cache-control')).toBe('public, max-age=300');
});

it('creates an unapproved student on first sign-in, signs them in and sends them home', async () => {
  const subject = providerAccount({
    email: 'Robin.Reader@Gmail.test',
    email_verified: true,
    name: 'Robin Reader',
  });
  const browser = app.client();
  const callback = await signInWithProvider(browser, subject);

  expect(callback.status).toBe(302);
  expect(callback.headers.get('location')).toBe('/');
  expect(callback.setCookies.find((c) => c.name === SESSION_COOKIE)?.attributes).toMatchObject({
    httponly: true,
    samesite: 'Lax',
  });
  expect(callback.setCookies.find((c) => c.name === 'district_oidc')?.value).toBe('');

  const me = await browser.get<User>('/api/auth/me');
  expect(me.status).toBe(200);
  expect(me.body).toMatchObject({
    name: 'Robin Reader',
    username: 'robin.reader',
    email: 'robin.reader@gmail.test',
    role: 'student',
    approved: false,
    isAdmin: false,
  });

  const links: { issuer: string; user_id: string }[] = await app.dataSource.query(
    'SELECT issuer, user_id FROM external_identities WHERE subject = $1',
    [subject],
  );
  expect(links).toEqual([{ issuer: provider.issuer, user_id: me.body.id }]);

  // The same provider account signs in as the same user next time.
  const again = app.client();
  expect((await signInWithProvider(again, subject)).status).toBe(302);
  expect((await again.get<User>('/api/auth/me')).body.id).toBe(me.body.id);
});

it('links a provider account to the existing user with the same verified email', async () => {
  const account = newAccount();
  const registered = (await app.client().post<User>('/api/auth/register', account)).body;
  const subject = providerAccount({ email: account.email, email_verified: true, name: 'Someone Else' });

  const browser = app.client();
  expect((await signInWithProvider(browser, subject)).status).toBe(302);
  const me = await browser.get<User>('/api/auth/me');
  expect(me.body).toMatchObject({ id: registered.id, name: account.name });
});

it('makes up a free username when the natural one is taken', async () => {
  const taken = newAccount({ username: 'casey' });
  expect((await app.client().post('/api/auth/register', taken)).status).toBe(201);
  const subject = providerAccount({
    email: 'casey@elsewhere.test',
    email_verified: true,
    preferred_username: 'Casey',
  });

  const browser = app.client();
  await signInWithProvider(browser, subject);
  expect((await browser.get<User>('/api/auth/me')).body.username).toBe('casey2');
});

it('refuses a provider account without a verified email, with a page saying so', async () => {
  const subject = providerAccount({
    email: 'unverified@elsewhere.test',
    email_verified: false,
    name: 'Unverified',
  });
  const browser = app.client();
  const callback = await signInWithProvider(browser, subject);
  expect(callback.status).toBe(403);
  expect(callback.headers.get('content-type')).toMatch(/text\/html/);
  expect(callback.text).toContain(IdentityMessages.oidcEmailRequired);
  expect(callback.text).toContain('href="/"');
  expect(callback.setCookies.some((c) => c.name === SESSION_COOKIE && c.value)).toBe(false);
  const users: unknown[] = await app.dataSource.query('SELECT 1 FROM users WHERE email = $1', [
    'unverified@elsewhere.test',
  ]);
  expect(users).toHaveLength(0);
});

it('refuses a callback the browser did not start (no pending sign-in), and one whose state was tampered with', async () => {
  const forged = await app.client().get('/api/auth/google/callback?code=stolen&state=whatever');
  expect(forged.status).toBe(400);
  expect(forged.text).toContain(IdentityMessages.oidcFailed);

  const subject = providerAccount({ email: 'tamper@elsewhere.test', email_verified: true });
  const browser = app.client();
  const start = await browser.get('/api/auth/google');
  const back = await signInAtProvider(
    browser,
    start.headers.get('location') as string,
    subject,
    isBackAtSite,
  );
  const callbackUrl = new URL(back.headers.get('location') as string);
  callbackUrl.searchParams.set('state', 'tampered');
  const tampered = await browser.request('GET', callbackUrl.href);
  expect(tampered.status).toBe(400);
  expect(tampered.text).toContain(IdentityMessages.oidcFailed);
  expect((await browser.get('/api/auth/me')).status).toBe(401);
});

it('says so with a page when the provider cannot be reached', async () => {
  const unreachable = await startIdentity({
    publicUrl: PUBLIC_URL,
    env: { OIDC_ISSUER: 'http://127.0.0.1:9/', OIDC_CLIENT_ID: 'x', OIDC_ALLOW_INSECURE_ISSUER: 'true' },
  });
  try {
    const res = await unreachable.client().get('/api/auth/google');
    expect(res.status).toBe(503);
    expect(res.text).toContain(IdentityMessages.oidcUnavailable);
  } finally {
    await unreachable.close();
  }
});

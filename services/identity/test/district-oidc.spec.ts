import { IdentityMessages, type User } from '@district/contracts';
import { SESSION_COOKIE, SessionStateStore } from '@district/nest-common';
import type { HttpClient } from '@district/nest-common/testing';
import { DistrictRows } from './support/district-rows';
import { startIdentity, type IdentityTestApp } from './support/identity-app';
import { signInAtProvider, startOidcProvider, type TestOidcProvider } from './support/oidc-provider';

/**
 * A rostered account's first sign-in through the district's OpenID provider (ADR 0042): linked by the provider's
 * verified email, ignoring case, keeping the approval and role its import gave it.
 */
const PUBLIC_URL = 'http://localhost:3000';
const CALLBACK = `${PUBLIC_URL}/api/auth/google/callback`;

let provider: TestOidcProvider;
let app: IdentityTestApp;
let rows: DistrictRows;
let seq = 0;

beforeAll(async () => {
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
  rows = new DistrictRows(app.dataSource, app.service.app.get(SessionStateStore));
});
afterAll(async () => {
  await app?.close();
  await provider?.close();
});

/** The provider's side of one sign-in, then the callback; returns the callback's answer. */
async function signIn(browser: HttpClient, subject: string) {
  const start = await browser.get('/api/auth/google');
  const back = await signInAtProvider(
    browser,
    start.headers.get('location') as string,
    subject,
    (url) => url.origin === PUBLIC_URL,
  );
  return browser.request('GET', back.headers.get('location') as string);
}

async function rosteredTeacher(email: string): Promise<string> {
  const n = ++seq;
  const [id] = await rows.users([
    { name: `Rostered Teacher ${n}`, username: `rteacher${n}`, email, role: 'teacher' },
  ]);
  await rows.rostered(id);
  return id;
}

const linksOf = (userId: string): Promise<{ issuer: string; subject: string }[]> =>
  app.dataSource.query(`SELECT issuer, subject FROM external_identities WHERE user_id = $1`, [userId]);

it('links a rostered account on its first sign-in by verified email in any letter case, keeping its approval and role', async () => {
  const id = await rosteredTeacher('Ada.Lovelace@District.test');
  const subject = `rostered-${Date.now()}`;
  provider.accounts.set(subject, {
    email: 'ADA.lovelace@district.TEST',
    email_verified: true,
    name: 'Ada L.',
  });

  const browser = app.client();
  const callback = await signIn(browser, subject);
  expect(callback.status).toBe(302);
  expect(callback.headers.get('location')).toBe('/');
  const me = await browser.get<User>('/api/auth/me');
  expect(me.status).toBe(200);
  expect(me.body).toMatchObject({
    id,
    name: 'Rostered Teacher 1',
    email: 'ada.lovelace@district.test',
    role: 'teacher',
    approved: true,
    isAdmin: false,
  });
  expect(await linksOf(id)).toEqual([{ issuer: provider.issuer, subject }]);

  // Later sign-ins find the link; the account is still the one rostered, still approved.
  const again = app.client();
  expect((await signIn(again, subject)).status).toBe(302);
  expect((await again.get<User>('/api/auth/me')).body).toMatchObject({ id, approved: true });
  const counted: { n: number }[] = await app.dataSource.query(
    `SELECT count(*)::int AS n FROM users WHERE lower(email) = 'ada.lovelace@district.test'`,
  );
  expect(counted[0].n).toBe(1);
});

it('refuses a rostered account whose email the provider has not verified: no link, no session, nothing changed', async () => {
  const id = await rosteredTeacher('grace.hopper@district.test');
  const subject = `unverified-${Date.now()}`;
  provider.accounts.set(subject, { email: 'grace.hopper@district.test', email_verified: false });

  const browser = app.client();
  const callback = await signIn(browser, subject);
  expect(callback.status).toBe(403);
  expect(callback.text).toContain(IdentityMessages.oidcEmailRequired);
  expect(callback.setCookies.some((c) => c.name === SESSION_COOKIE && c.value)).toBe(false);
  expect(await linksOf(id)).toEqual([]);
  const stored: { approved: boolean; token_version: number }[] = await app.dataSource.query(
    `SELECT approved, token_version FROM users WHERE id = $1`,
    [id],
  );
  expect(stored).toEqual([{ approved: true, token_version: 1 }]);
});

it('keeps the behaviour for an account that is not rostered: linked by verified email, still waiting for approval', async () => {
  const [id] = await rows.users([{ name: 'Walk In', username: 'walkin', email: 'walk.in@elsewhere.test' }]);
  await app.dataSource.query(`UPDATE users SET approved = false WHERE id = $1`, [id]);
  const subject = `walk-in-${Date.now()}`;
  provider.accounts.set(subject, { email: 'Walk.In@elsewhere.test', email_verified: true });

  const browser = app.client();
  expect((await signIn(browser, subject)).status).toBe(302);
  expect((await browser.get<User>('/api/auth/me')).body).toMatchObject({ id, approved: false });
  expect(await linksOf(id)).toHaveLength(1);
});

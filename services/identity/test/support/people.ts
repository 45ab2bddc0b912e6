import type { User } from '@district/contracts';
import type { HttpClient, Persona } from '@district/nest-common/testing';
import type { IdentityTestApp } from './identity-app';

export const ADMIN = { email: 'head@district.test', password: 'admin-secret-1' };
/** Env that bootstraps the administrator above. */
export const ADMIN_ENV = {
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
  ADMIN_NAME: 'Head Admin',
};

let counter = 0;
/** A unique, valid registration. */
export function newAccount(
  overrides: Partial<{ name: string; username: string; email: string; password: string; role: string }> = {},
) {
  counter++;
  const tag = `${Date.now().toString(36)}${counter}`;
  return {
    name: `Person ${tag}`,
    username: `person${tag}`,
    email: `person${tag}@school.test`,
    password: 'password-1',
    ...overrides,
  };
}

export async function signInAdmin(app: IdentityTestApp): Promise<HttpClient> {
  const admin = app.client();
  const res = await admin.post('/api/auth/login', ADMIN);
  if (res.status !== 200) throw new Error(`admin sign-in failed: ${res.status} ${res.text}`);
  return admin;
}

/** Registers someone (signed in on the returned client) and, through the admin, approves or promotes them. */
export async function registerPerson(
  app: IdentityTestApp,
  admin: HttpClient,
  persona: Exclude<Persona, 'anonymous'>,
): Promise<{ client: HttpClient; user: User; password: string }> {
  const client = app.client();
  const account = newAccount({ role: persona === 'teacher' ? 'teacher' : 'student' });
  const res = await client.post<User>('/api/auth/register', account);
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
  const user = res.body;
  if (persona !== 'pending')
    await expectOk(admin.patch(`/api/users/${user.id}/approval`, { approved: true }));
  if (persona === 'admin') await expectOk(admin.patch(`/api/users/${user.id}/admin`, { isAdmin: true }));
  // The changes above made the token stale; /me brings it up to date, as the web client does on load.
  if (persona !== 'pending') await expectOk(client.get('/api/auth/me'));
  return { client, user, password: account.password };
}

async function expectOk(request: Promise<{ status: number; text: string }>): Promise<void> {
  const res = await request;
  if (res.status >= 300) throw new Error(`unexpected ${res.status}: ${res.text}`);
}

/** The claims inside a session cookie (no verification: tests compare ids). */
export function tokenClaims(token: string | undefined): Record<string, unknown> {
  if (!token) throw new Error('no token');
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

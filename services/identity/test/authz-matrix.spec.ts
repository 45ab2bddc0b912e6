import { randomUUID } from 'node:crypto';
import { DEMO_ACCOUNTS, type User, type UserExportReply } from '@district/contracts';
import { SESSION_COOKIE } from '@district/nest-common';
import {
  describeAuthzMatrix,
  MATRIX_PERSONAS,
  type HttpClient,
  type MatrixPersona as Persona,
} from '@district/nest-common/testing';
import { DEFAULT_DEMO_PASSWORD } from '../src';
import matrix from './authz-matrix.json';
import {
  EXPORTING_SERVICES as USER_EXPORT_SERVICES,
  startIdentity,
  type IdentityTestApp,
} from './support/identity-app';
import { newAccount } from './support/people';

/** The demo district has one account of each kind; anonymous has no account at all. */
const credentials: Record<Persona, { email: string; password: string }> = {
  anonymous: { email: 'nobody@school.test', password: 'not-a-password' },
  pending: { email: demoEmail('pending'), password: DEFAULT_DEMO_PASSWORD },
  student: { email: demoEmail('student'), password: DEFAULT_DEMO_PASSWORD },
  teacher: { email: demoEmail('teacher'), password: DEFAULT_DEMO_PASSWORD },
  admin: { email: demoEmail('admin'), password: DEFAULT_DEMO_PASSWORD },
  suspendedAdmin: { email: 'suspended.admin@school.test', password: 'suspended-pass-1' },
};
/** Each persona's own id (a random one for anonymous), for the self-rule rows. */
const ownIds = new Map<Persona, string>();

let app: IdentityTestApp;

beforeAll(async () => {
  app = await startIdentity({ demo: true });
  const admin = await signIn('admin');
  const suspended = credentials.suspendedAdmin;
  const created = await app
    .client()
    .post<User>(
      '/api/auth/register',
      newAccount({ email: suspended.email, password: suspended.password, role: 'teacher' }),
    );
  for (const [path, body] of [
    ['approval', { approved: true }],
    ['admin', { isAdmin: true }],
    ['approval', { approved: false }],
  ] as const) {
    const res = await admin.patch(`/api/users/${created.body.id}/${path}`, body);
    if (res.status !== 200) throw new Error(`could not make the suspended admin: ${res.status} ${res.text}`);
  }
  // The right-of-access export asks the other services over the bus; here they answer empty parts (ADR 0021).
  for (const service of USER_EXPORT_SERVICES)
    await app.runtime.bus.reply(
      `${service}.user.export.v1`,
      async () => ({ service, sections: {} }) satisfies UserExportReply,
      service,
    );
  ownIds.set('anonymous', randomUUID());
  for (const persona of MATRIX_PERSONAS.filter((p) => p !== 'anonymous'))
    ownIds.set(persona, (await (await signIn(persona)).get<User>('/api/auth/me')).body.id);
});
afterAll(async () => {
  await app?.close();
});

describeAuthzMatrix({
  matrix,
  app: () => app,
  // A fresh client per cell, carrying the persona's one sign-in.
  clientFor: signIn,
  fill: async (route, persona) => ({
    path: await fillPath(route.path, persona),
    options: { body: bodyFor(route.body, persona) },
  }),
  // Signing out ends the persona's session: the next cell signs in again.
  afterCell: (route, persona) => {
    if (route.path === '/api/auth/logout') sessions.delete(persona);
  },
  // Public, but a stranger's 401 means "wrong email or password" and "no session" respectively.
  publicWith401: ['POST /api/auth/login', 'GET /api/auth/me'],
});

/** One sign-in per persona, copied into a fresh client per cell; signing out forgets it. */
const sessions = new Map<Persona, string>();

async function signIn(persona: Persona): Promise<HttpClient> {
  const client = app.client();
  if (persona === 'anonymous') return client;
  let token = sessions.get(persona);
  if (!token) {
    const res = await app.client().post('/api/auth/login', credentials[persona]);
    token = res.setCookies.find((c) => c.name === SESSION_COOKIE)?.value;
    if (res.status !== 200 || !token)
      throw new Error(`${persona} could not sign in: ${res.status} ${res.text}`);
    sessions.set(persona, token);
  }
  client.jar.set(client.baseUrl, SESSION_COOKIE, token);
  return client;
}

/** Fills the placeholders; a fresh target user per cell, spelled as the row asks. */
async function fillPath(path: string, persona: Persona): Promise<string> {
  let filled = path.replace('{SELF_UPPER}', (ownIds.get(persona) as string).toUpperCase());
  if (/\{target\}|\{TARGET\}|\{Target\}|\{targetWithNul\}/.test(filled)) {
    const id = await freshUserId();
    const mixed = [...id].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join('');
    filled = filled
      .replace('{target}', id)
      .replace('{TARGET}', id.toUpperCase())
      .replace('{Target}', mixed)
      .replace('{targetWithNul}', `${id}%00`);
  }
  return filled;
}

async function freshUserId(): Promise<string> {
  const res = await app.client().post<User>('/api/auth/register', newAccount());
  return res.body.id;
}

function bodyFor(body: unknown, persona: Persona): unknown {
  if (body === '$newAccount') return newAccount();
  if (body === undefined) return undefined;
  return JSON.parse(
    JSON.stringify(body)
      .replace('{email}', credentials[persona].email)
      .replace('{password}', credentials[persona].password),
  );
}

function demoEmail(key: string): string {
  const account = DEMO_ACCOUNTS.find((a) => a.key === key);
  if (!account) throw new Error(`no demo account ${key}`);
  return account.email;
}

import { IdentityMessages, LOGIN_MAX_FAILURES, LOGIN_WINDOW_SECONDS } from '@district/contracts';
import { startIdentity, type IdentityTestApp } from './support/identity-app';
import { newAccount } from './support/people';

let app: IdentityTestApp;
let addressSeq = 0;

beforeAll(async () => {
  app = await startIdentity();
});
afterAll(async () => {
  await app?.close();
});

/** Each call a different client address, as the gateway reports it (X-Forwarded-For). */
const freshAddress = () => `198.51.100.${++addressSeq}`;

async function register() {
  const account = newAccount();
  expect((await app.client().post('/api/auth/register', account)).status).toBe(201);
  return account;
}

function login(email: string, password: string, address: string) {
  return app.client({ 'x-forwarded-for': address }).post('/api/auth/login', { email, password });
}

function expectThrottled(res: { status: number; body: unknown; headers: Headers }) {
  expect(res.status).toBe(429);
  expect(res.body).toMatchObject({ statusCode: 429, message: IdentityMessages.tooManyAttempts });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(LOGIN_WINDOW_SECONDS);
}

describe('per account', () => {
  it(`refuses the account after ${LOGIN_MAX_FAILURES} failures, even with the right password, before checking it`, async () => {
    const account = await register();
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
      expect((await login(account.email, 'wrong-password', freshAddress())).status).toBe(401);
    }
    expectThrottled(await login(account.email, account.password, freshAddress()));
    expectThrottled(await login(account.email.toUpperCase(), 'wrong-password', freshAddress()));

    // Someone else, from an address with no failures, is not affected.
    const other = await register();
    expect((await login(other.email, other.password, freshAddress())).status).toBe(200);
  });

  it('throttles unknown emails exactly like real ones (no account enumeration)', async () => {
    const email = newAccount().email;
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++)
      expect((await login(email, 'guess', freshAddress())).status).toBe(401);
    expectThrottled(await login(email, 'guess', freshAddress()));
  });

  it('forgets earlier failures after a successful sign-in', async () => {
    const account = await register();
    for (let i = 0; i < LOGIN_MAX_FAILURES - 1; i++)
      await login(account.email, 'wrong-password', freshAddress());
    expect((await login(account.email, account.password, freshAddress())).status).toBe(200);
    for (let i = 0; i < LOGIN_MAX_FAILURES - 1; i++) {
      expect((await login(account.email, 'wrong-password', freshAddress())).status).toBe(401);
    }
    expect((await login(account.email, account.password, freshAddress())).status).toBe(200);
  });

  it('holds against a burst of parallel guesses: no more than the limit reach the password check', async () => {
    const account = await register();
    const burst = await Promise.all(
      Array.from({ length: 20 }, () => login(account.email, 'wrong-password', freshAddress())),
    );
    expect(burst.filter((r) => r.status === 401)).toHaveLength(LOGIN_MAX_FAILURES);
    expect(burst.filter((r) => r.status === 429)).toHaveLength(20 - LOGIN_MAX_FAILURES);
  });
});

describe('per address', () => {
  it(`refuses an address after ${LOGIN_MAX_FAILURES} failures across accounts; other addresses still sign in`, async () => {
    const address = freshAddress();
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
      expect((await login(newAccount().email, 'wrong-password', address)).status).toBe(401);
    }
    const victim = await register();
    expectThrottled(await login(victim.email, victim.password, address));
    expect((await login(victim.email, victim.password, freshAddress())).status).toBe(200);
  });

  it('does not count successful sign-ins against the address (a whole school may share one)', async () => {
    const address = freshAddress();
    const account = await register();
    for (let i = 0; i < LOGIN_MAX_FAILURES * 2; i++) {
      expect((await login(account.email, account.password, address)).status).toBe(200);
    }
  });
});

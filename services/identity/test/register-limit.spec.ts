import { IdentityMessages, REGISTER_WINDOW_SECONDS } from '@district/contracts';
import { startIdentity, type IdentityTestApp } from './support/identity-app';
import { newAccount } from './support/people';

/** Registration is rate-limited per address (the platform's RateLimiter, shared store). */
function register(app: IdentityTestApp, address: string, body: unknown) {
  return app.client({ 'x-forwarded-for': address }).post('/api/auth/register', body);
}

describe('with REGISTER_MAX_PER_ADDRESS=3', () => {
  let app: IdentityTestApp;
  beforeAll(async () => {
    app = await startIdentity({ env: { REGISTER_MAX_PER_ADDRESS: '3' } });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('counts valid registrations only, refuses past the limit with 429 + Retry-After, per address', async () => {
    const address = '203.0.113.40';
    // Invalid bodies are refused by validation and use up nothing.
    for (let i = 0; i < 5; i++) {
      expect((await register(app, address, { ...newAccount(), email: 'not-an-email' })).status).toBe(400);
    }
    const first = newAccount();
    expect((await register(app, address, first)).status).toBe(201);
    // A taken email still counts: probing which emails exist is what the limit slows down.
    expect((await register(app, address, { ...newAccount(), email: first.email })).status).toBe(409);
    expect((await register(app, address, newAccount())).status).toBe(201);

    const refusedAccount = newAccount();
    const refused = await register(app, address, refusedAccount);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ statusCode: 429, message: IdentityMessages.tooManyRegistrations });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(REGISTER_WINDOW_SECONDS);
    // Refused before anything was created: the account does not exist.
    const signIn = await app
      .client({ 'x-forwarded-for': '203.0.113.41' })
      .post('/api/auth/login', { email: refusedAccount.email, password: refusedAccount.password });
    expect(signIn.status).toBe(401);

    // Another address has its own allowance.
    expect((await register(app, '203.0.113.42', refusedAccount)).status).toBe(201);
  });
});

describe('with the default limit', () => {
  let app: IdentityTestApp;
  beforeAll(async () => {
    app = await startIdentity();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('lets a class of 35 sign up behind one school address', async () => {
    for (let i = 0; i < 35; i++) {
      expect((await register(app, '203.0.113.50', newAccount())).status).toBe(201);
    }
  }, 120_000);
});

import { setTimeout as sleep } from 'node:timers/promises';
import {
  IdentityMessages,
  LOGIN_FREE_FAILURES,
  LOGIN_MAX_FAILURES_PER_ACCOUNT,
  LOGIN_WINDOW_SECONDS,
} from '@district/contracts';
import { startIdentity, type IdentityTestApp } from './support/identity-app';
import { newAccount } from './support/people';

/**
 * Sign-in throttling through HTTP (OWASP: delays, not locks): progressive delays per (account, address) pair,
 * a per-address limit a school's shared address never meets, and a per-account ceiling that spares the owner.
 */
let app: IdentityTestApp;
let addressSeq = 0;

beforeAll(async () => {
  app = await startIdentity();
});
afterAll(async () => {
  await app?.close();
});

/** Each call a different client address, as the gateway reports it (X-Forwarded-For). */
const freshAddress = () => {
  addressSeq++;
  return `10.77.${Math.floor(addressSeq / 250)}.${(addressSeq % 250) + 1}`;
};

async function register(on = app) {
  const account = newAccount();
  expect((await on.client().post('/api/auth/register', account)).status).toBe(201);
  return account;
}

function login(email: string, password: string, address: string, on = app) {
  return on.client({ 'x-forwarded-for': address }).post('/api/auth/login', { email, password });
}

/** Asserts a 429 with the sign-in wording and returns its Retry-After. */
function expectThrottled(res: { status: number; body: unknown; headers: Headers }): number {
  expect(res.status).toBe(429);
  expect(res.body).toMatchObject({ statusCode: 429, message: IdentityMessages.tooManyAttempts });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(LOGIN_WINDOW_SECONDS);
  return retryAfter;
}

describe('per (account, address) pair', () => {
  it('a stranger’s failures from one address do not stop the owner signing in from another', async () => {
    const owner = await register();
    const stranger = freshAddress();
    for (let i = 0; i < 10; i++) await login(owner.email, 'wrong-password', stranger);
    // The stranger's pair is held, even with the right password…
    expectThrottled(await login(owner.email, owner.password, stranger));
    // …the owner elsewhere is not.
    expect((await login(owner.email, owner.password, freshAddress())).status).toBe(200);
  });

  it('delays the pair progressively once its free failures are used, the wait growing each time', async () => {
    const account = await register();
    const address = freshAddress();
    for (let i = 0; i < LOGIN_FREE_FAILURES; i++) {
      expect((await login(account.email, 'wrong-password', address)).status).toBe(401);
    }
    for (const expected of [1, 2, 4]) {
      // Refused before the password is checked: the right one does not help while the pair waits.
      expect(expectThrottled(await login(account.email, account.password, address))).toBe(expected);
      if (expected === 4) break;
      await sleep(expected * 1000);
      expect((await login(account.email.toUpperCase(), 'wrong-password', address)).status).toBe(401);
    }
  });

  it('starts the pair afresh after a successful sign-in from it', async () => {
    const account = await register();
    const address = freshAddress();
    for (let i = 0; i < LOGIN_FREE_FAILURES; i++) await login(account.email, 'wrong-password', address);
    expect(expectThrottled(await login(account.email, 'wrong-password', address))).toBe(1);
    await sleep(1000);
    expect((await login(account.email, account.password, address)).status).toBe(200);
    for (let i = 0; i < LOGIN_FREE_FAILURES; i++) {
      expect((await login(account.email, 'wrong-password', address)).status).toBe(401);
    }
    expect(expectThrottled(await login(account.email, 'wrong-password', address))).toBe(1);
  });

  it('delays unknown emails exactly like real ones (no account enumeration)', async () => {
    const email = newAccount().email;
    const address = freshAddress();
    for (let i = 0; i < LOGIN_FREE_FAILURES; i++)
      expect((await login(email, 'guess-guess', address)).status).toBe(401);
    expect(expectThrottled(await login(email, 'guess-guess', address))).toBe(1);
  });

  it('holds against a burst of parallel guesses: only the free failures reach the password check', async () => {
    const account = await register();
    const address = freshAddress();
    const started = Date.now();
    const burst = await Promise.all(
      Array.from({ length: 20 }, () => login(account.email, 'wrong-password', address)),
    );
    // The first delay is 1 s: a burst that a loaded machine spreads over more than that may see it end, and then
    // exactly one more guess goes through (and starts the next, longer wait).
    const through = LOGIN_FREE_FAILURES + (Date.now() - started > 1000 ? 1 : 0);
    expect(burst.filter((r) => r.status === 401).length).toBeGreaterThanOrEqual(LOGIN_FREE_FAILURES);
    expect(burst.filter((r) => r.status === 401).length).toBeLessThanOrEqual(through);
    expect(burst.filter((r) => r.status === 401).length + burst.filter((r) => r.status === 429).length).toBe(
      20,
    );
  });
});

describe('per address (a school behind one address)', () => {
  it('never refuses a class of 35 each mistyping twice behind one address', async () => {
    const school = freshAddress();
    const students = [];
    for (let i = 0; i < 35; i++) students.push(await register());
    for (const student of students) {
      expect((await login(student.email, 'wrong-password', school)).status).toBe(401);
      expect((await login(student.email, 'wrong-passw0rd', school)).status).toBe(401);
    }
    for (const student of students) {
      expect((await login(student.email, student.password, school)).status).toBe(200);
    }
  }, 120_000);

  describe('with LOGIN_MAX_FAILURES_PER_ADDRESS=5', () => {
    let strict: IdentityTestApp;
    beforeAll(async () => {
      strict = await startIdentity({ env: { LOGIN_MAX_FAILURES_PER_ADDRESS: '5' } });
    });
    afterAll(async () => {
      await strict?.close();
    });

    it('refuses the address past its failures across accounts; successes do not count, other addresses sign in', async () => {
      const address = freshAddress();
      const regular = await register(strict);
      for (let i = 0; i < 10; i++) {
        expect((await login(regular.email, regular.password, address, strict)).status).toBe(200);
      }
      for (let i = 0; i < 5; i++) {
        expect((await login(newAccount().email, 'wrong-password', address, strict)).status).toBe(401);
      }
      const victim = await register(strict);
      expectThrottled(await login(victim.email, victim.password, address, strict));
      expect((await login(victim.email, victim.password, freshAddress(), strict)).status).toBe(200);
    });
  });
});

describe('per account, across addresses', () => {
  it(`delays guessing spread over many addresses after ${LOGIN_MAX_FAILURES_PER_ACCOUNT} failures, but not the owner where they signed in before`, async () => {
    const owner = await register();
    const home = freshAddress();
    expect((await login(owner.email, owner.password, home)).status).toBe(200);

    // Free failures from many addresses, never waiting on any one pair.
    let address = freshAddress();
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ACCOUNT; i++) {
      if (i % LOGIN_FREE_FAILURES === 0) address = freshAddress();
      expect((await login(owner.email, 'wrong-password', address)).status).toBe(401);
    }
    // A place never used by the owner now waits for the window to pass (a delay, not a lock)…
    expectThrottled(await login(owner.email, owner.password, freshAddress()));
    // …while the owner's usual place still signs in.
    expect((await login(owner.email, owner.password, home)).status).toBe(200);
  }, 120_000);
});

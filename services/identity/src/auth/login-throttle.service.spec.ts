import {
  LOGIN_FIRST_DELAY_SECONDS,
  LOGIN_FREE_FAILURES,
  LOGIN_MAX_DELAY_SECONDS,
  LOGIN_MAX_FAILURES_PER_ACCOUNT,
  LOGIN_MAX_FAILURES_PER_ADDRESS,
  LOGIN_WINDOW_SECONDS,
  REGISTER_MAX_PER_ADDRESS,
  REGISTER_WINDOW_SECONDS,
} from '@district/contracts';
import { MemoryEphemeralStore, RateLimitedException, RateLimiter } from '@district/nest-common';
import type { IdentityConfig } from '../identity.config';
import { TooManyAttemptsError } from '../identity.errors';
import { retryAfterSeconds } from '@district/nest-common';
import { LoginThrottle, pairDelaySeconds } from './login-throttle.service';

describe('retryAfterSeconds', () => {
  it('rounds the remaining lifetime up to whole seconds, at least one', () => {
    expect(retryAfterSeconds(899_001, LOGIN_WINDOW_SECONDS)).toBe(900);
    expect(retryAfterSeconds(1_000, LOGIN_WINDOW_SECONDS)).toBe(1);
    expect(retryAfterSeconds(1, LOGIN_WINDOW_SECONDS)).toBe(1);
  });

  it('falls back to the whole window when the store reports no lifetime', () => {
    expect(retryAfterSeconds(-1, LOGIN_WINDOW_SECONDS)).toBe(LOGIN_WINDOW_SECONDS);
    expect(retryAfterSeconds(-2, LOGIN_WINDOW_SECONDS)).toBe(LOGIN_WINDOW_SECONDS);
  });
});

describe('pairDelaySeconds', () => {
  it('is free for the first failures, then doubles from the first delay up to the cap', () => {
    const delays = Array.from({ length: 16 }, (_, i) => pairDelaySeconds(i + 1));
    expect(delays.slice(0, LOGIN_FREE_FAILURES - 1)).toEqual([0, 0]);
    expect(delays.slice(LOGIN_FREE_FAILURES - 1, LOGIN_FREE_FAILURES + 3)).toEqual([1, 2, 4, 8]);
    expect(Math.max(...delays)).toBe(LOGIN_MAX_DELAY_SECONDS);
    expect(pairDelaySeconds(10_000)).toBe(LOGIN_MAX_DELAY_SECONDS);
    expect(LOGIN_FIRST_DELAY_SECONDS).toBe(1);
  });
});

describe('LoginThrottle', () => {
  let now: number;
  let store: MemoryEphemeralStore;
  let throttle: LoginThrottle;

  const config = (login: Partial<IdentityConfig['login']> = {}, registerMax = REGISTER_MAX_PER_ADDRESS) =>
    ({
      login: {
        maxFailuresPerAccount: LOGIN_MAX_FAILURES_PER_ACCOUNT,
        maxFailuresPerAddress: LOGIN_MAX_FAILURES_PER_ADDRESS,
        ...login,
      },
      register: { maxPerAddress: registerMax },
    }) as IdentityConfig;

  const make = (c: IdentityConfig) => new LoginThrottle(store, c, new RateLimiter(store));

  /** One failed attempt, as AuthService makes it: counted before the check, nothing to do after. */
  async function fail(email: string, address: string, t = throttle): Promise<void> {
    await t.begin(email, address);
  }

  async function succeed(email: string, address: string, t = throttle): Promise<void> {
    await t.succeeded(await t.begin(email, address));
  }

  async function refusal(attempt: Promise<unknown>): Promise<number> {
    const error = await attempt.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TooManyAttemptsError);
    return (error as TooManyAttemptsError).retryAfterSeconds;
  }

  beforeEach(() => {
    // Mid-window, so the fixed per-address windows do not roll over during a test by accident.
    now = Date.UTC(2025, 0, 6, 8, 0, 0);
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    store = new MemoryEphemeralStore({ now: () => now });
    throttle = make(config());
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await store.close();
  });

  describe('per (account, address) pair', () => {
    it('lets the first failures through, then makes each further attempt wait longer', async () => {
      for (let i = 0; i < LOGIN_FREE_FAILURES; i++) await fail('kim@school.test', '10.0.0.1');
      const waits: number[] = [];
      for (let i = 0; i < 5; i++) {
        const wait = await refusal(throttle.begin('KIM@school.test', '10.0.0.1'));
        waits.push(wait);
        now += wait * 1000;
        await fail('kim@school.test', '10.0.0.1');
      }
      expect(waits).toEqual([1, 2, 4, 8, 16]);
    });

    it('tells the remaining wait, and asking early does not lengthen it', async () => {
      for (let i = 0; i < LOGIN_FREE_FAILURES + 2; i++) {
        now += pairDelaySeconds(i) * 1000;
        await fail('kim@school.test', '10.0.0.1');
      }
      // The last attempt set a 4 s wait.
      now += 1_500;
      expect(await refusal(throttle.begin('kim@school.test', '10.0.0.1'))).toBe(3);
      expect(await refusal(throttle.begin('kim@school.test', '10.0.0.1'))).toBe(3);
      now += 2_500;
      await expect(throttle.begin('kim@school.test', '10.0.0.1')).resolves.toBeDefined();
    });

    it('caps the wait, so the owner is delayed but never locked out', async () => {
      for (let i = 0; i < 30; i++) {
        now += pairDelaySeconds(i) * 1000;
        await fail('kim@school.test', '10.0.0.1');
      }
      expect(await refusal(throttle.begin('kim@school.test', '10.0.0.1'))).toBe(LOGIN_MAX_DELAY_SECONDS);
      now += LOGIN_MAX_DELAY_SECONDS * 1000;
      await expect(succeed('kim@school.test', '10.0.0.1')).resolves.toBeUndefined();
    });

    it('does not let a stranger’s failures from one address delay the owner at another', async () => {
      for (let i = 0; i < 20; i++) {
        now += pairDelaySeconds(i) * 1000;
        await fail('kim@school.test', '203.0.113.66');
      }
      await expect(refusal(throttle.begin('kim@school.test', '203.0.113.66'))).resolves.toBeGreaterThan(1);
      await expect(succeed('kim@school.test', '10.0.0.1')).resolves.toBeUndefined();
    });

    it('starts again from free failures after a success from the pair', async () => {
      for (let i = 0; i < LOGIN_FREE_FAILURES; i++) await fail('kim@school.test', '10.0.0.1');
      now += 1_000;
      await succeed('kim@school.test', '10.0.0.1');
      for (let i = 0; i < LOGIN_FREE_FAILURES; i++) await fail('kim@school.test', '10.0.0.1');
      expect(await refusal(throttle.begin('kim@school.test', '10.0.0.1'))).toBe(1);
    });

    it('lets no more than the free failures of a parallel burst reach the password check', async () => {
      const burst = await Promise.allSettled(
        Array.from({ length: 20 }, () => throttle.begin('kim@school.test', '10.0.0.1')),
      );
      expect(burst.filter((r) => r.status === 'fulfilled')).toHaveLength(LOGIN_FREE_FAILURES);
      const refused = burst.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(refused.every((r) => r.reason instanceof TooManyAttemptsError)).toBe(true);
    });

    it('treats an unknown email exactly like a known one', async () => {
      for (let i = 0; i < LOGIN_FREE_FAILURES; i++) await fail('nobody@school.test', '10.0.0.1');
      expect(await refusal(throttle.begin('nobody@school.test', '10.0.0.1'))).toBe(1);
    });
  });

  describe('per address', () => {
    it('never refuses a class of 35 each mistyping twice behind one address, nor their sign-ins', async () => {
      for (let s = 0; s < 35; s++) {
        await fail(`s${s}@school.test`, '203.0.113.7');
        await fail(`s${s}@school.test`, '203.0.113.7');
      }
      for (let s = 0; s < 35; s++) await succeed(`s${s}@school.test`, '203.0.113.7');
    });

    it('refuses an address past its limit of failures across accounts, whoever tries next', async () => {
      const strict = make(config({ maxFailuresPerAddress: 10 }));
      for (let i = 0; i < 10; i++) await fail(`p${i}@school.test`, '203.0.113.7', strict);
      now += 60_000;
      expect(await refusal(strict.begin('new@school.test', '203.0.113.7'))).toBe(LOGIN_WINDOW_SECONDS - 60);
      await expect(strict.begin('new@school.test', '203.0.113.8')).resolves.toBeDefined();
      now += LOGIN_WINDOW_SECONDS * 1000;
      await expect(strict.begin('new@school.test', '203.0.113.7')).resolves.toBeDefined();
    });

    it('has a default that stops a spray across many accounts', async () => {
      for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ADDRESS; i++) await fail(`p${i}@school.test`, '203.0.113.7');
      await refusal(throttle.begin('another@school.test', '203.0.113.7'));
    });

    it('does not count successes against the address', async () => {
      const strict = make(config({ maxFailuresPerAddress: 10 }));
      for (let i = 0; i < 50; i++) await succeed(`s${i % 5}@school.test`, '203.0.113.7', strict);
      for (let i = 0; i < 10; i++) await fail(`p${i}@school.test`, '203.0.113.7', strict);
      await refusal(strict.begin('new@school.test', '203.0.113.7'));
    });

    it('holds against a parallel spray: no more attempts than the limit reach the check', async () => {
      const strict = make(config({ maxFailuresPerAddress: 10 }));
      const burst = await Promise.allSettled(
        Array.from({ length: 40 }, (_, i) => strict.begin(`p${i}@school.test`, '203.0.113.7')),
      );
      expect(burst.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    });
  });

  describe('per account, across addresses', () => {
    const ceiling = 6;

    it('delays guessing spread over many addresses, but not the owner where they signed in before', async () => {
      const strict = make(config({ maxFailuresPerAccount: ceiling }));
      await succeed('kim@school.test', '10.0.0.1', strict);
      for (let i = 0; i < ceiling; i++) await fail('kim@school.test', `198.51.100.${i}`, strict);
      now += 60_000;
      // A new address waits for the window (not a lock: it opens again on its own)…
      expect(await refusal(strict.begin('kim@school.test', '198.51.100.99'))).toBe(LOGIN_WINDOW_SECONDS - 60);
      // …while the owner's usual address is not stopped by a stranger's guesses.
      await expect(succeed('kim@school.test', '10.0.0.1', strict)).resolves.toBeUndefined();
    });

    it('opens again after the window', async () => {
      const strict = make(config({ maxFailuresPerAccount: ceiling }));
      for (let i = 0; i < ceiling; i++) await fail('kim@school.test', `198.51.100.${i}`, strict);
      await refusal(strict.begin('kim@school.test', '198.51.100.99'));
      now += LOGIN_WINDOW_SECONDS * 1000;
      await expect(strict.begin('kim@school.test', '198.51.100.99')).resolves.toBeDefined();
    });
  });

  describe('registration', () => {
    it('allows the limit per address per window, then refuses with Retry-After', async () => {
      const strict = make(config({}, 3));
      for (let i = 0; i < 3; i++) await strict.registration('203.0.113.7');
      const refused = await strict.registration('203.0.113.7').catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(RateLimitedException);
      expect((refused as RateLimitedException).retryAfter).toBe(REGISTER_WINDOW_SECONDS);
      await expect(strict.registration('203.0.113.8')).resolves.toBeUndefined();
    });

    it('lets a class of 35 sign up behind one address by default', async () => {
      for (let i = 0; i < 35; i++) await throttle.registration('203.0.113.7');
    });
  });

  it('keeps no email or address in the shared store', async () => {
    const writes = [
      jest.spyOn(store, 'incr'),
      jest.spyOn(store, 'set'),
      jest.spyOn(store, 'setIfAbsent'),
      jest.spyOn(store, 'del'),
    ];
    for (let i = 0; i < LOGIN_FREE_FAILURES; i++) await fail('kim@school.test', '10.0.0.1');
    now += 1_000;
    await succeed('kim@school.test', '10.0.0.1');
    await throttle.registration('10.0.0.1');
    const keys = writes.flatMap((spy) => spy.mock.calls.map(([key]) => key));
    expect(keys.length).toBeGreaterThan(5);
    expect(keys.join(' ')).not.toMatch(/kim|school|10\.0\.0/);
  });
});

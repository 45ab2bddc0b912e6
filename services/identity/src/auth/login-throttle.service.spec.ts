import { LOGIN_MAX_FAILURES, LOGIN_WINDOW_SECONDS } from '@district/contracts';
import { MemoryEphemeralStore } from '@district/nest-common';
import type { IdentityConfig } from '../identity.config';
import { TooManyAttemptsError } from '../identity.errors';
import { LoginThrottle, retryAfterSeconds } from './login-throttle.service';

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

describe('LoginThrottle', () => {
  let now: number;
  let store: MemoryEphemeralStore;
  let throttle: LoginThrottle;

  const config = (perAddress = LOGIN_MAX_FAILURES) =>
    ({
      login: { maxFailuresPerAccount: LOGIN_MAX_FAILURES, maxFailuresPerAddress: perAddress },
    }) as IdentityConfig;

  /** One failed attempt, as AuthService makes it. */
  async function fail(email: string, address: string): Promise<void> {
    await throttle.begin(email, address);
    await throttle.failed(address);
  }

  beforeEach(() => {
    now = Date.UTC(2025, 0, 6, 8, 0, 0);
    store = new MemoryEphemeralStore({ now: () => now });
    throttle = new LoginThrottle(store, config());
  });
  afterEach(() => store.close());

  it('locks an account for the rest of the window after the fifth failure, telling when to retry', async () => {
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) await fail('kim@school.test', `10.0.0.${i}`);
    now += 60_000;
    const refused = await throttle.begin('KIM@school.test', '10.0.1.1').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TooManyAttemptsError);
    expect((refused as TooManyAttemptsError).retryAfterSeconds).toBe(LOGIN_WINDOW_SECONDS - 60);
  });

  it('opens again when the window has passed', async () => {
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) await fail('kim@school.test', `10.0.0.${i}`);
    now += LOGIN_WINDOW_SECONDS * 1000 + 1;
    await expect(throttle.begin('kim@school.test', '10.0.1.1')).resolves.toBeUndefined();
  });

  it('forgets an account’s failures after a success', async () => {
    for (let i = 0; i < LOGIN_MAX_FAILURES - 1; i++) await fail('kim@school.test', `10.0.0.${i}`);
    await throttle.begin('kim@school.test', '10.0.0.9');
    await throttle.succeeded('kim@school.test');
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) await fail('kim@school.test', `10.0.2.${i}`);
  });

  it('locks an address after its failures across accounts, and honours a higher per-address limit', async () => {
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) await fail(`p${i}@school.test`, '203.0.113.7');
    await expect(throttle.begin('new@school.test', '203.0.113.7')).rejects.toBeInstanceOf(
      TooManyAttemptsError,
    );

    const lenient = new LoginThrottle(store, config(50));
    await expect(lenient.begin('new@school.test', '203.0.113.7')).resolves.toBeUndefined();
  });

  it('keeps no email address in the shared store', async () => {
    const incr = jest.spyOn(store, 'incr');
    const del = jest.spyOn(store, 'del');
    await fail('kim@school.test', '10.0.0.1');
    await throttle.succeeded('kim@school.test');
    const keys = [...incr.mock.calls, ...del.mock.calls].map(([key]) => key);
    expect(keys).toHaveLength(3);
    expect(keys.join(' ')).not.toMatch(/kim|school/);
  });
});

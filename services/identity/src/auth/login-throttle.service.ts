import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  IdentityMessages,
  LOGIN_FIRST_DELAY_SECONDS,
  LOGIN_FREE_FAILURES,
  LOGIN_KNOWN_PAIR_SECONDS,
  LOGIN_MAX_DELAY_SECONDS,
  LOGIN_PAIR_MEMORY_SECONDS,
  LOGIN_WINDOW_SECONDS,
  REGISTER_WINDOW_SECONDS,
} from '@district/contracts';
import {
  EPHEMERAL_STORE,
  RateLimiter,
  retryAfterSeconds,
  type EphemeralStore,
  type RateRule,
} from '@district/nest-common';
import { IDENTITY_CONFIG, type IdentityConfig } from '../identity.config';
import { TooManyAttemptsError } from '../identity.errors';

/** The wait a pair's n-th attempt imposes on its next one: none at first, then doubling up to the cap. */
export function pairDelaySeconds(attempt: number): number {
  if (attempt < LOGIN_FREE_FAILURES) return 0;
  return Math.min(LOGIN_MAX_DELAY_SECONDS, LOGIN_FIRST_DELAY_SECONDS * 2 ** (attempt - LOGIN_FREE_FAILURES));
}

/** What begin() counted, for succeeded() to forgive. */
export interface LoginAttempt {
  readonly keys: LoginKeys;
}

interface LoginKeys {
  /** The pair's attempts since its last success. */
  pair: string;
  /** Present while the pair must wait; its TTL is the wait. */
  wait: string;
  /** The pair signed in within LOGIN_KNOWN_PAIR_SECONDS. */
  known: string;
  /** Attempts at the account from everywhere, this window. */
  account: string;
  /** Attempts from the address in this fixed window, and how many of them succeeded. */
  address: string;
  addressSuccesses: string;
  /** When the address's window ends (epoch ms). */
  addressWindowEnd: number;
}

/**
 * Sign-in throttling in the shared store, so it holds across replicas. Delays rather than locks (OWASP):
 *
 * - Per (account, address) pair, the main defence: LOGIN_FREE_FAILURES free failures, then each further attempt
 *   waits longer (1 s, 2 s, 4 s … 15 min). A stranger's guesses from one address never slow the owner at another.
 *   Behind a shared address the pair is shared too: a classmate guessing a teacher's password at school delays
 *   the teacher there (not from home); telling them apart needs a per-device token.
 * - Per address: failures across accounts (a spray), with a limit a whole school behind one address never meets.
 * - Per account from all addresses (distributed guessing). A plain ceiling would let a stranger with a few
 *   addresses lock the owner out again, so pairs that signed in before are exempt: the owner's usual places keep
 *   working (still under their own pair's delays), and a new place waits at most for the rest of the window.
 *   A success clears the ceiling, so each time the owner signs in a distributed guesser gets a fresh allowance.
 *
 * Everything is counted *before* the password check and forgiven on success, so parallel guesses cannot slip
 * past a limit; refusals are decided from a look first, so a client asking again while it waits is not counted
 * and does not lengthen its own wait. In-flight attempts count as failures until they succeed.
 */
@Injectable()
export class LoginThrottle {
  private readonly windowMs = LOGIN_WINDOW_SECONDS * 1000;
  private readonly registerRule: RateRule;

  constructor(
    @Inject(EPHEMERAL_STORE) private readonly store: EphemeralStore,
    @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
  ) {
    this.registerRule = {
      name: 'identity.register.address',
      limit: config.register.maxPerAddress,
      windowMs: REGISTER_WINDOW_SECONDS * 1000,
      message: IdentityMessages.tooManyRegistrations,
    };
  }

  /** Counts a sign-in attempt; throws TooManyAttemptsError when the pair must wait or a ceiling is reached. */
  async begin(email: string, address: string): Promise<LoginAttempt> {
    const keys = loginKeys(email, address, Date.now(), this.windowMs);
    const { maxFailuresPerAddress, maxFailuresPerAccount } = this.config.login;

    // Look first: refused here, nothing is counted.
    const wait = await this.store.pttl(keys.wait);
    if (wait > 0) throw new TooManyAttemptsError(retryAfterSeconds(wait, LOGIN_WINDOW_SECONDS));
    const [addressAttempts, addressSuccesses, accountAttempts, known] = await this.store.mget([
      keys.address,
      keys.addressSuccesses,
      keys.account,
      keys.known,
    ]);
    if (Number(addressAttempts) - Number(addressSuccesses) >= maxFailuresPerAddress) this.refuseAddress(keys);
    if (Number(accountAttempts) >= maxFailuresPerAccount && !known) await this.refuse(keys.account);

    // Then count, and check again: of a parallel burst, only as many as the limits allow go on.
    const attempt = await this.store.incr(keys.pair, LOGIN_PAIR_MEMORY_SECONDS * 1000);
    const delay = pairDelaySeconds(attempt);
    if (delay > 0 && !(await this.store.setIfAbsent(keys.wait, '1', delay * 1000)))
      await this.refuse(keys.wait);
    const fromAddress = await this.store.incr(keys.address, this.windowMs);
    if (fromAddress - Number(addressSuccesses) > maxFailuresPerAddress) this.refuseAddress(keys);
    const atAccount = await this.store.incr(keys.account, this.windowMs);
    if (atAccount > maxFailuresPerAccount && !known) await this.refuse(keys.account);
    return { keys };
  }

  /** The right password: the pair starts afresh and is known, and the attempt does not count against the address. */
  async succeeded({ keys }: LoginAttempt): Promise<void> {
    await this.store.del(keys.pair);
    await this.store.del(keys.wait);
    await this.store.del(keys.account);
    await this.store.incr(keys.addressSuccesses, this.windowMs);
    await this.store.set(keys.known, '1', LOGIN_KNOWN_PAIR_SECONDS * 1000);
  }

  /** Counts a (valid) registration from the address; RateLimitedException (429 + Retry-After) past the limit. */
  async registration(address: string): Promise<void> {
    await this.limiter.consume([this.registerRule, address]);
  }

  private async refuse(key: string): Promise<never> {
    throw new TooManyAttemptsError(retryAfterSeconds(await this.store.pttl(key), LOGIN_WINDOW_SECONDS));
  }

  private refuseAddress(keys: LoginKeys): never {
    throw new TooManyAttemptsError(
      retryAfterSeconds(keys.addressWindowEnd - Date.now(), LOGIN_WINDOW_SECONDS),
    );
  }
}

/** Emails and addresses are hashed so the shared store holds no personal data. */
function hash(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\n')).digest('base64url');
}

function loginKeys(email: string, address: string, now: number, windowMs: number): LoginKeys {
  const account = hash(email.toLowerCase());
  const pair = hash(email.toLowerCase(), address);
  // Fixed windows, so the attempts and the successes that offset them always expire together.
  const window = Math.floor(now / windowMs);
  const addressKey = `identity:login:address:${hash(address)}:${window}`;
  return {
    pair: `identity:login:pair:${pair}`,
    wait: `identity:login:wait:${pair}`,
    known: `identity:login:known:${pair}`,
    account: `identity:login:account:${account}`,
    address: addressKey,
    addressSuccesses: `${addressKey}:ok`,
    addressWindowEnd: (window + 1) * windowMs,
  };
}

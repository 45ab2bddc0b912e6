import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { LOGIN_WINDOW_SECONDS } from '@district/contracts';
import { EPHEMERAL_STORE, type EphemeralStore } from '@district/nest-common';
import { IDENTITY_CONFIG, type IdentityConfig } from '../identity.config';
import { TooManyAttemptsError } from '../identity.errors';

/** Seconds a client should wait, from a counter's remaining lifetime (never less than 1). */
export function retryAfterSeconds(ttlMs: number, windowSeconds: number): number {
  return ttlMs > 0 ? Math.max(1, Math.ceil(ttlMs / 1000)) : windowSeconds;
}

/**
 * Sign-in throttling per account and per address, in the shared store so it holds across replicas. Each
 * counter lives for one window from its first failure; at the limit, attempts are refused until it ends.
 *
 * The account's attempt is counted before the password is checked (and forgiven on success), so a burst of
 * parallel guesses at one account cannot slip past the limit. The address counts only failures, because
 * a whole school may sign in from one address and its successes must not use up the allowance.
 */
@Injectable()
export class LoginThrottle {
  private readonly windowMs = LOGIN_WINDOW_SECONDS * 1000;

  constructor(
    @Inject(EPHEMERAL_STORE) private readonly store: EphemeralStore,
    @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig,
  ) {}

  /** Throws TooManyAttemptsError when the address or the account is at its limit. */
  async begin(email: string, address: string): Promise<void> {
    const addressKey = keyForAddress(address);
    const addressFailures = Number((await this.store.get(addressKey)) ?? 0);
    if (addressFailures >= this.config.login.maxFailuresPerAddress) await this.refuse(addressKey);

    const accountKey = keyForAccount(email);
    const accountAttempts = await this.store.incr(accountKey, this.windowMs);
    if (accountAttempts > this.config.login.maxFailuresPerAccount) await this.refuse(accountKey);
  }

  async failed(address: string): Promise<void> {
    await this.store.incr(keyForAddress(address), this.windowMs);
  }

  async succeeded(email: string): Promise<void> {
    await this.store.del(keyForAccount(email));
  }

  private async refuse(key: string): Promise<never> {
    throw new TooManyAttemptsError(retryAfterSeconds(await this.store.pttl(key), LOGIN_WINDOW_SECONDS));
  }
}

/** Emails are hashed so the shared store holds no personal data. */
function keyForAccount(email: string): string {
  return `identity:login:account:${createHash('sha256').update(email.toLowerCase()).digest('base64url')}`;
}

function keyForAddress(address: string): string {
  return `identity:login:address:${address}`;
}

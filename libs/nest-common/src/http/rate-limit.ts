import { createHash } from 'node:crypto';
import { HttpException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import { EPHEMERAL_STORE, type EphemeralStore } from '../pubsub/pubsub.port';

/** One limit: at most `limit` hits per `windowMs` for each subject (an account, an address…). */
export interface RateRule {
  /** Part of the store key: one name per rule, e.g. `content.comment.account`. */
  name: string;
  limit: number;
  windowMs: number;
  /** The 429's message. */
  message: string;
}

/** 429 with `Retry-After` (the platform's ErrorFilter writes the header from `retryAfter`). */
export class RateLimitedException extends HttpException {
  constructor(
    message: string,
    readonly retryAfter: number,
  ) {
    super({ statusCode: HttpStatus.TOO_MANY_REQUESTS, message, retryAfter }, HttpStatus.TOO_MANY_REQUESTS);
  }
}

/**
 * Fixed-window counters in the shared store, so a limit holds across replicas. Subjects are hashed before
 * they become keys: the store holds no addresses or emails.
 */
@Injectable()
export class RateLimiter {
  constructor(@Inject(EPHEMERAL_STORE) private readonly store: EphemeralStore) {}

  /** Counts one hit for each rule and subject; throws RateLimitedException when any is over its limit. */
  async consume(...checks: Array<[RateRule, string]>): Promise<void> {
    for (const [rule, subject] of checks) {
      const key = rateKey(rule, subject);
      const count = await this.store.incr(key, rule.windowMs);
      if (count > rule.limit) {
        throw new RateLimitedException(
          rule.message,
          retryAfterSeconds(await this.store.pttl(key), Math.ceil(rule.windowMs / 1000)),
        );
      }
    }
  }
}

/** Seconds a client should wait, from a counter's remaining lifetime (never less than 1; the window when unknown). */
export function retryAfterSeconds(ttlMs: number, windowSeconds: number): number {
  return ttlMs > 0 ? Math.max(1, Math.ceil(ttlMs / 1000)) : windowSeconds;
}

export function rateKey(rule: RateRule, subject: string): string {
  return `rate:${rule.name}:${createHash('sha256').update(subject).digest('base64url')}`;
}

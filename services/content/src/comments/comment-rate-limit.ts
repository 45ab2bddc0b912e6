import { Inject, Injectable } from '@nestjs/common';
import { z } from 'zod';
import { COMMENT_RATE_LIMITS, ContentMessages } from '@district/contracts';
import { loadConfig, RateLimiter, type RateRule } from '@district/nest-common';

/** How many comments an account and an address may post (defaults: COMMENT_RATE_LIMITS, with the why). */
export interface CommentRateLimits {
  accountPerMinute: number;
  accountPerHour: number;
  addressPerTenMinutes: number;
}

export const COMMENT_RATE_LIMITS_CONFIG = Symbol('COMMENT_RATE_LIMITS_CONFIG');

/** Compose and Helm often pass unset variables as empty strings; treat those as absent. */
const count = z.preprocess(
  (v) => (v === '' ? undefined : v),
  z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .optional(),
);

const envSchema = z.object({
  CONTENT_COMMENT_RATE_PER_ACCOUNT_MINUTE: count,
  CONTENT_COMMENT_RATE_PER_ACCOUNT_HOUR: count,
  /** Per 10 minutes. Worth raising where many classes share one school address. */
  CONTENT_COMMENT_RATE_PER_ADDRESS: count,
});

/** The limits from the environment, each defaulting to the contracts' value; a bad value fails the start. */
export function commentRateLimitsFromEnv(env: NodeJS.ProcessEnv): CommentRateLimits {
  const parsed = loadConfig('content', envSchema, env);
  return {
    accountPerMinute: parsed.CONTENT_COMMENT_RATE_PER_ACCOUNT_MINUTE ?? COMMENT_RATE_LIMITS.accountPerMinute,
    accountPerHour: parsed.CONTENT_COMMENT_RATE_PER_ACCOUNT_HOUR ?? COMMENT_RATE_LIMITS.accountPerHour,
    addressPerTenMinutes: parsed.CONTENT_COMMENT_RATE_PER_ADDRESS ?? COMMENT_RATE_LIMITS.addressPerTenMinutes,
  };
}

const MINUTE_MS = 60_000;

/** Counts new comments with the platform's RateLimiter (shared store, so the limits hold across replicas). */
@Injectable()
export class CommentRateLimit {
  private readonly accountRules: RateRule[];
  private readonly addressRule: RateRule;

  constructor(
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
    @Inject(COMMENT_RATE_LIMITS_CONFIG) limits: CommentRateLimits,
  ) {
    const rule = (name: string, limit: number, windowMs: number): RateRule => ({
      name: `content.comment.${name}`,
      limit,
      windowMs,
      message: ContentMessages.tooManyComments,
    });
    this.accountRules = [
      rule('account.minute', limits.accountPerMinute, MINUTE_MS),
      rule('account.hour', limits.accountPerHour, 60 * MINUTE_MS),
    ];
    this.addressRule = rule('address', limits.addressPerTenMinutes, 10 * MINUTE_MS);
  }

  /** Counts one comment; throws RateLimitedException (429 with Retry-After) when the account or address is over. */
  async consume(accountId: string, address: string): Promise<void> {
    // The account first: attempts it makes past its own limit are refused before they use up the allowance its
    // classmates share at the same address.
    await this.limiter.consume(...this.accountRules.map((rule): [RateRule, string] => [rule, accountId]), [
      this.addressRule,
      address,
    ]);
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { ContentMessages } from '@district/contracts';
import { RateLimiter, type RateRule } from '@district/nest-common';
// The limits are read by the root module from content's schema.
import { COMMENT_RATE_LIMITS_CONFIG, type CommentRateLimits } from '../content.config';

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

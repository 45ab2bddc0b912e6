import { COMMENT_RATE_LIMITS } from '@district/contracts';
import { defineConfig, envInt } from '@district/nest-common';

/** How many comments an account and an address may post (defaults: COMMENT_RATE_LIMITS, with the why). */
export interface CommentRateLimits {
  accountPerMinute: number;
  accountPerHour: number;
  addressPerTenMinutes: number;
}

const count = (fallback: number) => envInt(fallback, { min: 1 });

/**
 * content's environment: one schema, read once at start by the root module (a bad value stops the service with the
 * problem named) and provided under COMMENT_RATE_LIMITS_CONFIG (content's only settings today). An empty value is unset (ADR 0038). How many
 * comments an account and an address may post; the defaults, with the why, are COMMENT_RATE_LIMITS.
 */
export const contentConfig = defineConfig(
  'content',
  {
    CONTENT_COMMENT_RATE_PER_ACCOUNT_MINUTE: count(COMMENT_RATE_LIMITS.accountPerMinute),
    CONTENT_COMMENT_RATE_PER_ACCOUNT_HOUR: count(COMMENT_RATE_LIMITS.accountPerHour),
    /** Per 10 minutes. Worth raising where many classes share one school address. */
    CONTENT_COMMENT_RATE_PER_ADDRESS: count(COMMENT_RATE_LIMITS.addressPerTenMinutes),
  },
  {
    build: (values): CommentRateLimits => ({
      accountPerMinute: values.CONTENT_COMMENT_RATE_PER_ACCOUNT_MINUTE,
      accountPerHour: values.CONTENT_COMMENT_RATE_PER_ACCOUNT_HOUR,
      addressPerTenMinutes: values.CONTENT_COMMENT_RATE_PER_ADDRESS,
    }),
  },
);

export const COMMENT_RATE_LIMITS_CONFIG = contentConfig.token;

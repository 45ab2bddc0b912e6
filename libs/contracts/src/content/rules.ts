import { READ_TIME_CHARS_PER_MINUTE } from './messages';

/**
 * Spec §5 slug rule: lower case, non-alphanumerics removed, spaces to hyphens, repeated hyphens collapsed.
 * Accents are folded first (é → e) so Spanish titles keep their letters; leading and trailing hyphens go.
 */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** What a slug must look like once made (also for slugs typed by an admin, after slugify). */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Spec §9: text length ÷ 200 characters per minute, rounded up; at least one minute. */
export function readTimeFromTextLength(length: number): number {
  return Math.max(1, Math.ceil(length / READ_TIME_CHARS_PER_MINUTE));
}

/** The `n`-th candidate for a slug already taken: base, base-2, base-3… */
export function slugCandidate(base: string, attempt: number): string {
  return attempt === 0 ? base : `${base}-${attempt + 1}`;
}

/**
 * Comment creation limits (the spec sets none), counted per account and per address (the school's, for pupils
 * in class). Typing a comment by hand takes most of a minute, so:
 * - per account 10 a minute and 60 an hour: a lively pupil in a lesson-long discussion (one a minute) stays
 *   under both; a script is stopped within seconds, and at most 60 an hour get through to moderation;
 * - per address 300 in 10 minutes: a class of 35 behind one school address posting 8 each in ten minutes (far
 *   more than a discussion produces) makes 280, while one person cycling through self-registered accounts, each
 *   under its own limit, meets it. Schools with several classes behind one address can raise it
 *   (CONTENT_COMMENT_RATE_PER_ADDRESS in the content service).
 */
export const COMMENT_RATE_LIMITS = {
  accountPerMinute: 10,
  accountPerHour: 60,
  addressPerTenMinutes: 300,
} as const;

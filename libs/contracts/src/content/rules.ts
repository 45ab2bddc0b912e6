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

import { slugCandidate, slugify } from '@district/contracts';
import { InvalidInputError } from '../content.errors';

/** Candidates tried before falling back to a time-based suffix. */
const SLUG_ATTEMPTS = 50;

/** A new post's slug before de-duplication: from the slug sent, or else the title (spec §5). */
export function newPostSlug(input: { slug?: string; title: string }): string {
  return slugify(input.slug || input.title) || 'post';
}

/** The first of base, base-2, base-3… that is not `taken`. */
export function firstFreeSlug(base: string, taken: ReadonlySet<string>): string {
  for (let attempt = 0; attempt < SLUG_ATTEMPTS; attempt++) {
    const candidate = slugCandidate(base, attempt);
    if (!taken.has(candidate)) return candidate;
  }
  return `${base}-${Date.now().toString(36)}`;
}

/**
 * The slug an edit asks for, or undefined when none was sent (or a blank one): the slug then stays as it is,
 * so links keep working. A slug with nothing left after the rule is refused rather than replaced.
 */
export function editedSlug(sent: string | undefined): string | undefined {
  if (sent === undefined || sent.trim() === '') return undefined;
  const slug = slugify(sent);
  if (!slug) throw new InvalidInputError('Slug must contain letters or digits');
  return slug;
}

/** Rules for usernames made up on a person's behalf (third-party sign-in, the bootstrapped admin). */

const MAX_BASE_LENGTH = 30;
const FALLBACK = 'user';
/** Plain suffixes first (sam, sam2 … sam9), then random ones, which stay short and rarely collide. */
const PLAIN_SUFFIX_ATTEMPTS = 9;
export const MAX_USERNAME_ATTEMPTS = 20;

/** Letters and digits from the source (accents folded), dots, hyphens and underscores kept, lower case. */
export function usernameBase(source: string | undefined): string {
  const base = (source ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, '.')
    .replace(/[^a-z0-9._-]/g, '')
    .replace(/[._-]{2,}/g, '.')
    .replace(/^[._-]+|[._-]+$/g, '')
    .slice(0, MAX_BASE_LENGTH)
    .replace(/[._-]+$/, '');
  return base || FALLBACK;
}

/** The candidate to try at `attempt` (0-based) when earlier ones were taken. */
export function usernameCandidate(base: string, attempt: number, random: () => number = Math.random): string {
  if (attempt === 0) return base;
  if (attempt < PLAIN_SUFFIX_ATTEMPTS) return `${base}${attempt + 1}`;
  return `${base}${Math.floor(1000 + random() * 9000)}`;
}

/** What a person is called when the provider gives no name. */
export function displayName(claims: {
  name?: unknown;
  given_name?: unknown;
  family_name?: unknown;
  email?: unknown;
}): string {
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const full =
    text(claims.name) || [text(claims.given_name), text(claims.family_name)].filter(Boolean).join(' ');
  const fromEmail = text(claims.email).split('@')[0] ?? '';
  return (full || fromEmail || 'New user').slice(0, 120);
}

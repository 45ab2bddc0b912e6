import { SLIDE_EMBED_DELAY_MS } from './messages';

/** The host of every Google Slides presentation link. */
export const GOOGLE_SLIDES_HOST = 'docs.google.com';
const ID = '[A-Za-z0-9_-]+';
const PUBLISHED = new RegExp(`^/presentation/d/e/(${ID})/pub(?:[^A-Za-z0-9_-].*)?$`);
const PRESENTATION = new RegExp(`^/presentation/d/(${ID})(?:/.*)?$`);
const EMBED_PARAMS = `start=false&loop=false&delayms=${SLIDE_EMBED_DELAY_MS}`;

function parse(raw: string): URL | undefined {
  try {
    const url = new URL(raw.trim());
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    if (url.username !== '' || url.password !== '') return undefined;
    if (url.hostname.toLowerCase() !== GOOGLE_SLIDES_HOST) return undefined;
    if (url.port !== '') return undefined;
    return url;
  } catch {
    return undefined;
  }
}

/**
 * Whether `raw` is a Google Slides presentation link (spec §5: 'Please enter a valid Google Slides URL' otherwise):
 * an http(s) URL on docs.google.com (no user info, no port) whose path is under /presentation/.
 */
export function isGoogleSlidesUrl(raw: string): boolean {
  const url = parse(raw);
  return url !== undefined && url.pathname.startsWith('/presentation/');
}

/**
 * The embed address of a Google Slides link (spec §5): a published link (`/presentation/d/e/{id}/pub…`) becomes
 * `https://docs.google.com/presentation/d/e/{id}/embed?…`, a normal one (`/presentation/d/{id}…`) becomes
 * `https://docs.google.com/presentation/d/{id}/embed?…`, both with start off, loop off and a 3000 ms delay; anything
 * else gives '' (no preview). Id characters: letters, digits, `-`, `_`. Pure: the server stores and serves only this.
 */
export function deriveEmbedUrl(raw: string): string {
  if (typeof raw !== 'string') return '';
  const url = parse(raw);
  if (url === undefined) return '';
  const path = url.pathname;
  if (path.startsWith('/presentation/d/e/')) {
    const published = PUBLISHED.exec(path);
    return published
      ? `https://${GOOGLE_SLIDES_HOST}/presentation/d/e/${published[1]}/embed?${EMBED_PARAMS}`
      : '';
  }
  const normal = PRESENTATION.exec(path);
  return normal ? `https://${GOOGLE_SLIDES_HOST}/presentation/d/${normal[1]}/embed?${EMBED_PARAMS}` : '';
}

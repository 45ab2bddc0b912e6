/**
 * Pure rules for what passes between the browser and the audio host: the Range header sent up, and the answer
 * checked and reduced to what playback needs.
 */

/** One byte range (`bytes=0-`, `bytes=100-199`, `bytes=-500`): anything else is ignored, as servers ignore it. */
export function rangeToForward(range: string | string[] | undefined): string | undefined {
  if (typeof range !== 'string' || range.length > 64) return undefined;
  const value = range.trim();
  return /^bytes=(\d{1,15}-\d{0,15}|-\d{1,15})$/.test(value) ? value : undefined;
}

/** The media type of a Content-Type value, lower case, without parameters ('' when absent or malformed). */
export function mediaType(contentType: string | undefined): string {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(type) ? type : '';
}

/** Audio types, or octet-stream (what Drive and Dropbox often answer for a download). */
export function isPlayableType(type: string): boolean {
  return type.startsWith('audio/') || type === 'application/octet-stream';
}

/** The whole file's size from `Content-Range: bytes a-b/total` (null when absent or `*`). */
export function totalFromContentRange(contentRange: string | undefined): number | null {
  const match = /^bytes (?:\d+-\d+|\*)\/(\d+)$/.exec((contentRange ?? '').trim());
  return match ? Number(match[1]) : null;
}

export type UpstreamHeaders = Record<string, string | string[] | undefined>;

/** A header's value as one string: the first of a repeated header. */
export function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

const header = (headers: UpstreamHeaders, name: string): string | undefined => firstValue(headers[name]);

/**
 * The answer's headers for the browser: only what playback needs (type, length, range, validators), never the
 * host's cookies, caching or security headers; plus our own: no sniffing, a sandbox CSP, private caching.
 */
export function headersForBrowser(headers: UpstreamHeaders, type: string): Record<string, string> {
  const out: Record<string, string> = {
    'content-type': type,
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'cache-control': 'private, max-age=300',
  };
  const length = header(headers, 'content-length');
  if (length !== undefined && /^\d{1,15}$/.test(length)) out['content-length'] = length;
  const range = header(headers, 'content-range');
  if (range !== undefined && /^bytes (\d+-\d+|\*)\/(\d+|\*)$/.test(range.trim()))
    out['content-range'] = range.trim();
  const acceptRanges = header(headers, 'accept-ranges');
  if (acceptRanges === 'bytes' || acceptRanges === 'none') out['accept-ranges'] = acceptRanges;
  const etag = header(headers, 'etag');
  if (etag !== undefined && /^(W\/)?"[\x21\x23-\x7e]{0,200}"$/.test(etag)) out.etag = etag;
  const lastModified = header(headers, 'last-modified');
  if (lastModified !== undefined && lastModified.length <= 64 && !Number.isNaN(Date.parse(lastModified))) {
    out['last-modified'] = lastModified;
  }
  return out;
}

export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

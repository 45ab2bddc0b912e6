/** Helpers of the content modes: find-in-HTML, link and image insertion, and the alt-text rule before publishing. */

/** Start offsets of every case-insensitive occurrence of `term` in `text`. */
export function findMatches(text: string, term: string): number[] {
  if (!term) return [];
  const hay = text.toLowerCase();
  const needle = term.toLowerCase();
  const found: number[] = [];
  for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + needle.length)) found.push(i);
  return found;
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Links may point at http(s), mailto or a site path; anything else (javascript:, data:) is refused. */
export function isSafeLinkUrl(url: string): boolean {
  const u = url.trim();
  return /^(https?:\/\/|mailto:)\S+$/i.test(u) || /^\/(?!\/)\S*$/.test(u);
}

/** Images may come from http(s) or a site path (uploads); the server drops any other source. */
export function isSafeImageUrl(url: string): boolean {
  const u = url.trim();
  return /^https?:\/\/\S+$/i.test(u) || /^\/(?!\/)\S*$/.test(u);
}

/** `<a href="url">text</a>` with both parts escaped. */
export function linkHtml(url: string, text: string): string {
  return `<a href="${escapeHtml(url.trim())}">${escapeHtml(text.trim() || url.trim())}</a>`;
}

/** Replaces the [start, end) range of `text` with `insert`; returns the new text and the caret after it. */
export function insertAt(
  text: string,
  start: number,
  end: number,
  insert: string,
): { text: string; caret: number } {
  return { text: text.slice(0, start) + insert + text.slice(end), caret: start + insert.length };
}

/** Images without a meaningful alt text (read in a detached document: nothing loads or runs). */
export function imagesWithoutAlt(html: string): number {
  if (!html) return 0;
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return Array.from(doc.querySelectorAll('img')).filter((img) => !(img.getAttribute('alt') ?? '').trim())
    .length;
}

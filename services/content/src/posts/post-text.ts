import { readTimeFromTextLength } from '@district/contracts';
import { htmlToText } from '../html/html-text';

export const EXCERPT_LENGTH = 160;

/**
 * A full-text query from what someone typed: words only (letters and digits, so no tsquery syntax can get
 * through), each matched as a prefix, all required. Null when nothing searchable is left.
 */
export function prefixTsQuery(input: string): string | null {
  const words = input
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 8);
  return words.length ? words.map((w) => `${w}:*`).join(' & ') : null;
}

/** An excerpt made from the text when the author gave none: the first words, cut at a word boundary. */
export function excerptFromText(text: string, max = EXCERPT_LENGTH): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The author's excerpt as plain text, or one made from the post's text when they gave none (or a blank one). */
export function excerptOf(given: string | undefined, text: string): string {
  const own = given === undefined ? '' : htmlToText(given);
  return own || excerptFromText(text);
}

export function readTimeOf(text: string): number {
  return readTimeFromTextLength(text.length);
}

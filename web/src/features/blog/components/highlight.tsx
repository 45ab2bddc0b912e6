import { Fragment } from 'react';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The words of a search, for highlighting (the server searches words as prefixes). */
export function searchWords(query: string): string[] {
  return Array.from(new Set(query.trim().toLowerCase().split(/\s+/).filter(Boolean)));
}

/** Splits `text` into plain and matching parts; matching is case-insensitive. Exported for unit tests. */
export function splitMatches(text: string, words: string[]): Array<{ text: string; match: boolean }> {
  if (words.length === 0 || !text) return text ? [{ text, match: false }] : [];
  const pattern = new RegExp(`(${words.map(escapeRegExp).join('|')})`, 'gi');
  return text
    .split(pattern)
    .filter((part) => part !== '')
    .map((part) => ({ text: part, match: words.includes(part.toLowerCase()) }));
}

/** Text with the search words marked; React escapes every part, so no HTML is ever built from the query. */
export function Highlight({ text, words }: { text: string; words: string[] }) {
  return (
    <>
      {splitMatches(text, words).map((part, i) =>
        part.match ? (
          <mark key={i} className="rounded bg-amber-200 px-0.5 text-inherit">
            {part.text}
          </mark>
        ) : (
          <Fragment key={i}>{part.text}</Fragment>
        ),
      )}
    </>
  );
}

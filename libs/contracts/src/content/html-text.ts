/**
 * How HTML becomes readable plain text (excerpts, search, read time, feeds, meta descriptions, the web's cards and
 * SEO checks). The server (htmlparser2) and the web (the browser's DOM) walk the markup differently but read these
 * same lists, so a lesson's text is the same on both sides.
 */

/**
 * Elements that end a paragraph of the readable text: where a browser starts a new line, a reader sees two words,
 * so "Colombia.</p><p>In Spain" reads "Colombia. In Spain", never "Colombia.In Spain".
 */
export const TEXT_PARAGRAPH_ELEMENTS: ReadonlySet<string> = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'caption',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'legend',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'tfoot',
  'thead',
  'tr',
  'ul',
]);

/** Elements that separate words without ending the line: table cells ("Los colores" | "Rojo") and embedded media. */
export const TEXT_WORD_SEPARATING_ELEMENTS: ReadonlySet<string> = new Set([
  'td',
  'th',
  'img',
  'iframe',
  'audio',
  'video',
  'source',
]);

/** Elements whose text no reader sees (sanitize-html's non-text elements, and a few more). */
export const TEXT_SILENT_ELEMENTS: ReadonlySet<string> = new Set([
  'script',
  'style',
  'textarea',
  'option',
  'xmp',
  'noscript',
  'template',
  'title',
]);

/** Whitespace runs (non-breaking spaces included) to one space, ends trimmed. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

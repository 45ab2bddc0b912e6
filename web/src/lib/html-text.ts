import {
  collapseWhitespace,
  TEXT_PARAGRAPH_ELEMENTS,
  TEXT_SILENT_ELEMENTS,
  TEXT_WORD_SEPARATING_ELEMENTS,
} from '@district/contracts/content';

/**
 * Text of an HTML fragment on one line, as the content service makes it (services/content/src/html/html-text.ts,
 * the same element lists): block boundaries and table cells become one space, so "Colombia.</p><p>In Spain" reads
 * "Colombia. In Spain"; whitespace is collapsed. Parsed into a detached document, which never loads or runs anything.
 */
export function htmlToText(html: string): string {
  if (!html) return '';
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const parts: string[] = [];
  const walk = (node: Node) => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === Node.TEXT_NODE) {
        parts.push(child.nodeValue ?? '');
        continue;
      }
      if (child.nodeType !== Node.ELEMENT_NODE) continue;
      const name = (child as Element).localName;
      if (TEXT_SILENT_ELEMENTS.has(name)) continue;
      const separates = TEXT_PARAGRAPH_ELEMENTS.has(name) || TEXT_WORD_SEPARATING_ELEMENTS.has(name);
      if (separates) parts.push(' ');
      walk(child);
      if (separates) parts.push(' ');
    }
  };
  walk(doc.body);
  return collapseWhitespace(parts.join(''));
}

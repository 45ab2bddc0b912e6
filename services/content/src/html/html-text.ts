import {
  collapseWhitespace,
  TEXT_PARAGRAPH_ELEMENTS,
  TEXT_SILENT_ELEMENTS,
  TEXT_WORD_SEPARATING_ELEMENTS,
} from '@district/contracts';
import { Parser } from 'htmlparser2';

/**
 * The readable text of an HTML fragment as paragraphs (blocks such as p, li, h1–h6, tr, blockquote, br), each with
 * its whitespace collapsed; table cells in a row are joined by a space (the element lists are the contract's, which
 * the web's `htmlToText` reads too). Entities are decoded by htmlparser2 (the
 * parser sanitize-html runs on), so `&nbsp;`, `&#233;` and `&eacute;` read as their characters.
 */
export function htmlToParagraphs(html: string): string[] {
  const paragraphs: string[] = [];
  let current = '';
  let silent = 0;
  const endParagraph = () => {
    const text = collapseWhitespace(current);
    if (text) paragraphs.push(text);
    current = '';
  };
  const boundary = (name: string) => {
    if (TEXT_PARAGRAPH_ELEMENTS.has(name)) endParagraph();
    else if (TEXT_WORD_SEPARATING_ELEMENTS.has(name)) current += ' ';
  };
  const parser = new Parser(
    {
      onopentag(name) {
        if (TEXT_SILENT_ELEMENTS.has(name)) silent++;
        else boundary(name);
      },
      onclosetag(name) {
        if (TEXT_SILENT_ELEMENTS.has(name)) silent = Math.max(0, silent - 1);
        else boundary(name);
      },
      ontext(text) {
        if (silent === 0) current += text;
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  endParagraph();
  return paragraphs;
}

/**
 * The readable text of an HTML fragment on one line (search, read time, excerpts, feeds, meta descriptions): block
 * boundaries and table cells become a single space, whitespace is collapsed.
 */
export function htmlToText(html: string): string {
  return htmlToParagraphs(html).join(' ');
}

// Test-only reader for the chat PDF: pages, and the text of every Tj operator decoded through the embedded
// font's ToUnicode map (text in an Identity-H font is written as glyph ids, not as readable characters).
import { pdfPages, readPdfObjects, type PdfObjects } from '@/testing/pdf-inspect';

export interface ChatPdfText {
  header: string;
  pageCount: number;
  /** Every drawn string, page by page, in drawing order. */
  pages: string[][];
  /** Names of the embedded fonts (FontFile2 streams present). */
  embeddedFonts: string[];
}

function toUnicodeMap(objects: PdfObjects): Map<number, string> {
  const map = new Map<number, string>();
  const hex = (h: string) =>
    String.fromCodePoint(...(h.match(/.{4}/g) ?? []).map((x) => Number.parseInt(x, 16)));
  for (const { stream } of objects.values()) {
    if (!stream || !stream.includes('begincmap')) continue;
    for (const [, src, dst] of stream.matchAll(/<([0-9a-fA-F]{4})>\s*<([0-9a-fA-F]+)>/g))
      map.set(Number.parseInt(src, 16), hex(dst));
  }
  return map;
}

export function readChatPdf(bytes: Uint8Array): ChatPdfText {
  const { raw, objects } = readPdfObjects(bytes);
  const cmap = toUnicodeMap(objects);
  const decodeHex = (h: string) =>
    (h.match(/.{4}/g) ?? []).map((x) => cmap.get(Number.parseInt(x, 16)) ?? '\uFFFD').join('');
  const pages = pdfPages(objects).map(({ content }) =>
    [...content.matchAll(/<([0-9a-fA-F]*)>\s*Tj/g)].map((t) => decodeHex(t[1])),
  );
  const embeddedFonts = [...objects.values()]
    .filter((o) => /\/Type \/FontDescriptor/.test(o.dict) && /\/FontFile2/.test(o.dict))
    .map((o) => /\/FontName \/([^\s/]+)/.exec(o.dict)?.[1] ?? '');
  return { header: raw.slice(0, 8), pageCount: pages.length, pages, embeddedFonts };
}

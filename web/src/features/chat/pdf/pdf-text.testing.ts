// Test-only reader for the chat PDF: pages, and the text of every Tj operator decoded through the embedded
// font's ToUnicode map (text in an Identity-H font is written as glyph ids, not as readable characters).
import { inflateSync } from 'node:zlib';

const latin1 = new TextDecoder('latin1');

export interface ChatPdfText {
  header: string;
  pageCount: number;
  /** Every drawn string, page by page, in drawing order. */
  pages: string[][];
  /** Names of the embedded fonts (FontFile2 streams present). */
  embeddedFonts: string[];
}

function readObjects(bytes: Uint8Array) {
  const raw = latin1.decode(bytes);
  const objects = new Map<number, { dict: string; stream: string | null }>();
  const objRe = /(\d+) 0 obj\s*([\s\S]*?)endobj/g;
  let m: RegExpExecArray | null;
  while ((m = objRe.exec(raw))) {
    const body = m[2];
    const streamAt = body.indexOf('stream');
    if (streamAt < 0) {
      objects.set(Number(m[1]), { dict: body, stream: null });
      continue;
    }
    const dict = body.slice(0, streamAt);
    let start = m.index + m[0].indexOf(body) + streamAt + 'stream'.length;
    if (raw[start] === '\r') start++;
    if (raw[start] === '\n') start++;
    const length = Number(/\/Length (\d+)/.exec(dict)?.[1] ?? '0');
    const data = bytes.subarray(start, start + length);
    objects.set(Number(m[1]), { dict, stream: /\/FlateDecode/.test(dict) ? latin1.decode(inflateSync(data)) : latin1.decode(data) });
  }
  return { raw, objects };
}

function toUnicodeMap(objects: Map<number, { dict: string; stream: string | null }>): Map<number, string> {
  const map = new Map<number, string>();
  const hex = (h: string) => String.fromCodePoint(...(h.match(/.{4}/g) ?? []).map((x) => Number.parseInt(x, 16)));
  for (const { stream } of objects.values()) {
    if (!stream || !stream.includes('begincmap')) continue;
    for (const [, src, dst] of stream.matchAll(/<([0-9a-fA-F]{4})>\s*<([0-9a-fA-F]+)>/g)) map.set(Number.parseInt(src, 16), hex(dst));
  }
  return map;
}

export function readChatPdf(bytes: Uint8Array): ChatPdfText {
  const { raw, objects } = readObjects(bytes);
  const cmap = toUnicodeMap(objects);
  const decodeHex = (h: string) =>
    (h.match(/.{4}/g) ?? []).map((x) => cmap.get(Number.parseInt(x, 16)) ?? '\uFFFD').join('');
  const pageObjects = [...objects.entries()].filter(([, o]) => /\/Type \/Page\b/.test(o.dict)).sort(([a], [b]) => a - b);
  const pages = pageObjects.map(([, o]) => {
    const ref = /\/Contents (\d+) 0 R/.exec(o.dict)?.[1];
    const content = ref ? (objects.get(Number(ref))?.stream ?? '') : '';
    return [...content.matchAll(/<([0-9a-fA-F]*)>\s*Tj/g)].map((t) => decodeHex(t[1]));
  });
  const embeddedFonts = [...objects.values()]
    .filter((o) => /\/Type \/FontDescriptor/.test(o.dict) && /\/FontFile2/.test(o.dict))
    .map((o) => /\/FontName \/([^\s/]+)/.exec(o.dict)?.[1] ?? '');
  return { header: raw.slice(0, 8), pageCount: pageObjects.length, pages, embeddedFonts };
}

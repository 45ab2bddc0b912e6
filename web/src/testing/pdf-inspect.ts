// Test-only reader for the PDFs the tools build: enough of the format to count pages and read drawn text.
import { inflateSync } from 'node:zlib';

const latin1 = new TextDecoder('latin1');

export interface InspectedPdf {
  header: string;
  pageCount: number;
  /** The text of every Tj/TJ operator, page by page, in drawing order. */
  pages: string[][];
  /** The size of every Tf operator, page by page. */
  fontSizes: number[][];
  /** The raw file as latin1 text (for dictionary checks). */
  raw: string;
}

function unescapePdfString(body: string): string {
  return body.replace(/\\([nrtbf()\\]|[0-7]{1,3})/g, (_, esc: string) => {
    switch (esc) {
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      case 't':
        return '\t';
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case '(':
      case ')':
      case '\\':
        return esc;
      default:
        return String.fromCharCode(Number.parseInt(esc, 8));
    }
  });
}

function textOperators(content: string): string[] {
  const out: string[] = [];
  const re = /\(((?:\\.|[^\\)])*)\)\s*Tj/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(content))) out.push(unescapePdfString(m[1]));
  return out;
}

export type PdfObjects = Map<number, { dict: string; stream: string | null }>;

/** Reads objects "n 0 obj << ... >> stream ... endstream", inflating Flate streams. */
export function readPdfObjects(bytes: Uint8Array): { raw: string; objects: PdfObjects } {
  const raw = latin1.decode(bytes);
  const objects: PdfObjects = new Map();
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
    let dataStart = m.index + m[0].indexOf(body) + streamAt + 'stream'.length;
    if (raw[dataStart] === '\r') dataStart++;
    if (raw[dataStart] === '\n') dataStart++;
    const length = Number(/\/Length (\d+)/.exec(dict)?.[1] ?? '0');
    const data = bytes.subarray(dataStart, dataStart + length);
    const stream = /\/FlateDecode/.test(dict) ? latin1.decode(inflateSync(data)) : latin1.decode(data);
    objects.set(Number(m[1]), { dict, stream });
  }
  return { raw, objects };
}

/** The page objects in order and each one's content stream. */
export function pdfPages(objects: PdfObjects): { dict: string; content: string }[] {
  return [...objects.entries()]
    .filter(([, o]) => /\/Type \/Page\b/.test(o.dict))
    .sort(([a], [b]) => a - b)
    .map(([, o]) => {
      const ref = /\/Contents (\d+) 0 R/.exec(o.dict)?.[1];
      return { dict: o.dict, content: ref ? (objects.get(Number(ref))?.stream ?? '') : '' };
    });
}

export function inspectPdf(bytes: Uint8Array): InspectedPdf {
  const { raw, objects } = readPdfObjects(bytes);
  const contents = pdfPages(objects).map((p) => p.content);
  return {
    header: raw.slice(0, 8),
    pageCount: contents.length,
    pages: contents.map(textOperators),
    fontSizes: contents.map((c) => [...c.matchAll(/\/F\d+ ([\d.]+) Tf/g)].map((m) => Number(m[1]))),
    raw,
  };
}

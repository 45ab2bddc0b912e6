// Test-only reader for the PDFs our builders produce: enough of the format to count pages and read drawn text.
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

/** Reads objects "n 0 obj << ... >> stream ... endstream", inflating Flate streams. */
export function inspectPdf(bytes: Uint8Array): InspectedPdf {
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
    let dataStart = m.index + m[0].indexOf(body) + streamAt + 'stream'.length;
    if (raw[dataStart] === '\r') dataStart++;
    if (raw[dataStart] === '\n') dataStart++;
    const length = Number(/\/Length (\d+)/.exec(dict)?.[1] ?? '0');
    const data = bytes.subarray(dataStart, dataStart + length);
    const stream = /\/FlateDecode/.test(dict) ? latin1.decode(inflateSync(data)) : latin1.decode(data);
    objects.set(Number(m[1]), { dict, stream });
  }
  const pageObjects = [...objects.entries()]
    .filter(([, o]) => /\/Type \/Page\b/.test(o.dict))
    .sort(([a], [b]) => a - b);
  const contents = pageObjects.map(([, o]) => {
    const ref = /\/Contents (\d+) 0 R/.exec(o.dict)?.[1];
    return ref ? (objects.get(Number(ref))?.stream ?? '') : '';
  });
  return {
    header: raw.slice(0, 8),
    pageCount: pageObjects.length,
    pages: contents.map(textOperators),
    fontSizes: contents.map((c) => [...c.matchAll(/\/F\d+ ([\d.]+) Tf/g)].map((m) => Number(m[1]))),
    raw,
  };
}

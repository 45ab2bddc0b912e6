// The only modules that import jspdf are the *-pdf.ts builders, and pages reach them through import(),
// so the library is fetched only when a teacher actually exports (ARCHITECTURE.md section 7).
import { jsPDF } from 'jspdf';
import { hashString } from './random';

export type PdfDocument = jsPDF;

/** A4 portrait in millimetres: jsPDF's default page, which the spec's margin and width figures assume. */
export const A4 = { width: 210, height: 297 } as const;

const PT_TO_MM = 25.4 / 72;

export interface PdfMeta {
  title: string;
  /** Fixed by callers that need identical bytes for identical input (tests); defaults to now. */
  createdAt?: Date;
}

/**
 * A new compressed A4 document whose creation date and file id come from the caller, so the same input and
 * date always give the same bytes.
 */
export function createPdf(meta: PdfMeta, fingerprint: string): jsPDF {
  const doc = new jsPDF({ unit: 'mm', format: 'a4', orientation: 'portrait', compress: true });
  const createdAt = meta.createdAt ?? new Date();
  doc.setCreationDate(createdAt);
  const seed = `${fingerprint}|${createdAt.toISOString()}`;
  const id = [0, 1, 2, 3].map((i) => hashString(`${i}|${seed}`).toString(16).padStart(8, '0')).join('');
  doc.setFileId(id.toUpperCase());
  doc.setDocumentProperties({ title: pdfSafe(meta.title), creator: 'District Learning classroom tools' });
  return doc;
}

// The standard PDF fonts only cover Windows-1252; anything else would print as garbage, so it becomes '?'.
const CP1252_EXTRAS = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** Text the built-in Helvetica can draw: NFC-normalised, control characters removed, unsupported ones as '?'. */
export function pdfSafe(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    const code = ch.codePointAt(0) ?? 0;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) continue;
    out += code <= 0xff || CP1252_EXTRAS.has(ch) ? ch : '?';
  }
  return out;
}

/** Line height in mm for a font size in points. */
export function lineHeightMm(fontSizePt: number, factor = 1.15): number {
  return fontSizePt * PT_TO_MM * factor;
}

/**
 * The largest font size in [minPt, maxPt] at which `text` wraps into the box; at the minimum it wraps anyway
 * and, if still too tall, keeps the lines that fit with an ellipsis on the last one.
 */
export function fitTextInBox(
  doc: jsPDF,
  text: string,
  boxWidth: number,
  boxHeight: number,
  minPt: number,
  maxPt: number,
): { fontSize: number; lines: string[] } {
  const words = text.split(/\s+/).filter(Boolean);
  for (let size = maxPt; size >= minPt; size--) {
    doc.setFontSize(size);
    // Breaking a word mid-way is the last resort, so a size only counts if every word fits whole.
    if (!words.every((word) => doc.getTextWidth(word) <= boxWidth)) continue;
    const lines = wrap(doc, text, boxWidth);
    if (lines.length * lineHeightMm(size) <= boxHeight) return { fontSize: size, lines };
  }
  doc.setFontSize(minPt);
  const lines = wrap(doc, text, boxWidth);
  const room = Math.max(1, Math.floor(boxHeight / lineHeightMm(minPt)));
  if (lines.length <= room) return { fontSize: minPt, lines };
  const kept = lines.slice(0, room);
  kept[room - 1] = truncateToWidth(doc, `${kept[room - 1]}…`, boxWidth);
  return { fontSize: minPt, lines: kept };
}

/** Word-wraps at spaces, and breaks words that are wider than the box on their own. */
function wrap(doc: jsPDF, text: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const last = lines.length ? lines[lines.length - 1] : null;
    if (last !== null && doc.getTextWidth(`${last} ${word}`) <= width) {
      lines[lines.length - 1] = `${last} ${word}`;
      continue;
    }
    let rest = word;
    while (doc.getTextWidth(rest) > width && rest.length > 1) {
      let cut = rest.length - 1;
      while (cut > 1 && doc.getTextWidth(rest.slice(0, cut)) > width) cut--;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    lines.push(rest);
  }
  return lines.length ? lines : [''];
}

/** Shortens `text` (keeping a trailing ellipsis) until it fits `width` at the current font size. */
export function truncateToWidth(doc: jsPDF, text: string, width: number): string {
  if (doc.getTextWidth(text) <= width) return text;
  const base = text.endsWith('…') ? text.slice(0, -1) : text;
  for (let cut = base.length - 1; cut > 0; cut--) {
    const candidate = `${base.slice(0, cut)}…`;
    if (doc.getTextWidth(candidate) <= width) return candidate;
  }
  return '…';
}

/** Draws lines centred on (x, centreY). */
export function drawCentredLines(
  doc: jsPDF,
  lines: string[],
  x: number,
  centreY: number,
  fontSize: number,
): void {
  const lh = lineHeightMm(fontSize);
  const top = centreY - (lines.length * lh) / 2 + lh / 2;
  lines.forEach((line, i) => doc.text(line, x, top + i * lh, { align: 'center', baseline: 'middle' }));
}

/** The finished file as bytes: what a test inspects and what the page turns into a download. */
export function pdfBytes(doc: jsPDF): Uint8Array {
  return new Uint8Array(doc.output('arraybuffer'));
}

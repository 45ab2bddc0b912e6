import {
  A4,
  createPdf,
  drawCentredLines,
  fitTextInBox,
  lineHeightMm,
  pdfBytes,
  pdfSafe,
  truncateToWidth,
  type PdfDocument,
} from '../shared/pdf-document';
import { cardRows, type BingoCard } from './bingo-card';
import { BINGO_LETTERS, BingoMessages, FREE_LABEL, NUMBER_BINGO, WORD_BINGO } from './bingo.constants';

const PX_TO_MM = 25.4 / 96;

interface CardLayout {
  title: string;
  instruction: string;
  headings: boolean;
  gridWidth: number;
  minFont: number;
  maxFont: number;
  margin: number;
}

function drawCardPage(
  doc: PdfDocument,
  card: BingoCard,
  layout: CardLayout,
  index: number,
  total: number,
): void {
  const { margin, gridWidth } = layout;
  const centreX = A4.width / 2;
  let y = margin + 6;

  doc.setFont('helvetica', 'bold');
  doc.setFontSize(22);
  doc.text(truncateToWidth(doc, pdfSafe(layout.title), A4.width - 2 * margin), centreX, y, {
    align: 'center',
  });
  y += 9;
  doc.setFont('helvetica', 'normal');
  doc.setFontSize(11);
  doc.text(layout.instruction, centreX, y, { align: 'center' });
  y += 8;

  const cell = gridWidth / card.size;
  const left = (A4.width - gridWidth) / 2;
  if (layout.headings) {
    doc.setFont('helvetica', 'bold');
    doc.setFontSize(24);
    BINGO_LETTERS.forEach((letter, col) => {
      doc.text(letter, left + col * cell + cell / 2, y + 6, { align: 'center', baseline: 'middle' });
    });
    y += 13;
  }

  doc.setLineWidth(0.5);
  doc.setDrawColor(30, 41, 59);
  cardRows(card).forEach((row, r) => {
    row.forEach((square, c) => {
      const x = left + c * cell;
      const top = y + r * cell;
      if (square.free) {
        doc.setFillColor(226, 232, 240);
        doc.rect(x, top, cell, cell, 'FD');
      } else {
        doc.rect(x, top, cell, cell, 'S');
      }
      doc.setFont('helvetica', 'bold');
      const text = square.free ? FREE_LABEL : pdfSafe(square.value);
      const padding = 2;
      const fit = fitTextInBox(
        doc,
        text,
        cell - 2 * padding,
        cell - 2 * padding,
        layout.minFont,
        layout.maxFont,
      );
      doc.setFontSize(fit.fontSize);
      drawCentredLines(doc, fit.lines, x + cell / 2, top + cell / 2, fit.fontSize);
    });
  });

  doc.setFont('helvetica', 'normal');
  doc.setFontSize(9);
  doc.setTextColor(100, 116, 139);
  doc.text(`Card ${index + 1} of ${total}`, centreX, A4.height - margin / 2, { align: 'center' });
  doc.setTextColor(0, 0, 0);
}

/** One or more pages listing every value in call order, numbered, in columns. */
function drawCallerSheet(doc: PdfDocument, calls: readonly string[], columns: number): void {
  const margin = 20;
  const fontSize = 11;
  const lh = lineHeightMm(fontSize, 1.5);
  const columnWidth = (A4.width - 2 * margin) / columns;
  let start = 0;
  let first = true;
  while (start < calls.length || first) {
    doc.addPage();
    doc.setFont('helvetica', 'bold');
    doc.setFontSize(20);
    doc.text(
      first ? BingoMessages.callerSheetTitle : BingoMessages.callerSheetContinued,
      A4.width / 2,
      margin + 6,
      {
        align: 'center',
      },
    );
    doc.setFont('helvetica', 'normal');
    doc.setFontSize(11);
    doc.text(BingoMessages.callerSheetHint, A4.width / 2, margin + 14, { align: 'center' });
    const top = margin + 26;
    const rows = Math.floor((A4.height - margin - top) / lh);
    const perPage = rows * columns;
    doc.setFontSize(fontSize);
    calls.slice(start, start + perPage).forEach((value, i) => {
      const col = Math.floor(i / rows);
      const row = i % rows;
      const label = `${start + i + 1}. `;
      const x = margin + col * columnWidth;
      const y = top + row * lh;
      doc.rect(x, y - 3.2, 3.5, 3.5, 'S');
      doc.text(truncateToWidth(doc, `${label}${pdfSafe(value)}`, columnWidth - 8), x + 5.5, y);
    });
    start += perPage;
    first = false;
  }
}

export interface WordBingoPdfInput {
  title: string;
  cards: readonly BingoCard[];
  /** Every word in call order, printed after the cards; omit for no caller sheet. */
  calls?: readonly string[];
  createdAt?: Date;
}

/**
 * The word-bingo file: one card per page with the title, the instruction line, B-I-N-G-O headings on 5x5,
 * page margin 20, grid at most 150 wide, cell font 10–18 (spec section 9); then the optional caller sheet.
 */
export function buildWordBingoPdf(input: WordBingoPdfInput): Uint8Array {
  const size = input.cards[0]?.size ?? WORD_BINGO.defaultSize;
  const doc = createPdf({ title: input.title, createdAt: input.createdAt }, JSON.stringify(input));
  const layout: CardLayout = {
    title: input.title,
    instruction: BingoMessages.instruction('words', size),
    headings: size === 5,
    margin: WORD_BINGO.pdfMargin,
    gridWidth: Math.min(A4.width - 2 * WORD_BINGO.pdfMargin, WORD_BINGO.pdfMaxGridWidth),
    minFont: WORD_BINGO.pdfMinFontSize,
    maxFont: WORD_BINGO.pdfMaxFontSize,
  };
  input.cards.forEach((card, i) => {
    if (i > 0) doc.addPage();
    drawCardPage(doc, card, layout, i, input.cards.length);
  });
  if (input.calls) drawCallerSheet(doc, input.calls, 3);
  return pdfBytes(doc);
}

export interface NumberBingoPdfInput {
  cards: readonly BingoCard[];
  calls?: readonly string[];
  createdAt?: Date;
}

/** The number-bingo file: the spec's printed card, 500px wide with 100px cells, one card per page. */
export function buildNumberBingoPdf(input: NumberBingoPdfInput): Uint8Array {
  const doc = createPdf({ title: NUMBER_BINGO.title, createdAt: input.createdAt }, JSON.stringify(input));
  const layout: CardLayout = {
    title: NUMBER_BINGO.title,
    instruction: BingoMessages.instruction('numbers', NUMBER_BINGO.size),
    headings: true,
    margin: WORD_BINGO.pdfMargin,
    gridWidth: NUMBER_BINGO.printWidthPx * PX_TO_MM,
    minFont: 14,
    maxFont: 26,
  };
  input.cards.forEach((card, i) => {
    if (i > 0) doc.addPage();
    drawCardPage(doc, card, layout, i, input.cards.length);
  });
  if (input.calls) drawCallerSheet(doc, input.calls, 6);
  return pdfBytes(doc);
}

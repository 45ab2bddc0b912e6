import {
  A4,
  createPdf,
  lineHeightMm,
  pdfBytes,
  pdfSafe,
  truncateToWidth,
  type PdfDocument,
} from '../shared/pdf-document';
import { CLUE_ELLIPSIS, CLUE_MAX_CHARS, CrosswordMessages } from './crossword.constants';
import { shortClue, type CrosswordLayout, type Direction } from './crossword-layout';

const MARGIN = 20;
const CELL = 8;
const CLUE_GAP = 8;

export interface CrosswordPdfInput {
  title: string;
  layout: CrosswordLayout;
  createdAt?: Date;
}

/** The clue lines printed under the grid: "number. clue", the clue cut at 35 characters plus an ellipsis. */
export function clueLines(layout: CrosswordLayout, direction: Direction): string[] {
  return layout.placed
    .filter((w) => w.direction === direction)
    .map((w) => `${w.number}. ${shortClue(w.clue, CLUE_MAX_CHARS, CLUE_ELLIPSIS)}`);
}

function drawPage(doc: PdfDocument, input: CrosswordPdfInput, answers: boolean): void {
  const { layout } = input;
  const centreX = A4.width / 2;
  doc.setFont('helvetica', 'bold');
  doc.setFontSize(20);
  doc.text(truncateToWidth(doc, pdfSafe(input.title), A4.width - 2 * MARGIN), centreX, MARGIN, {
    align: 'center',
  });
  doc.setFontSize(13);
  doc.text(answers ? CrosswordMessages.answerKey : CrosswordMessages.worksheet, centreX, MARGIN + 8, {
    align: 'center',
  });
  doc.setFont('helvetica', 'normal');
  doc.setFontSize(11);
  if (!answers) doc.text(CrosswordMessages.nameLine, MARGIN, MARGIN + 17);

  // The 15×15 grid, centred; only squares that belong to a word are drawn, as in a criss-cross puzzle.
  const gridWidth = layout.size * CELL;
  const left = (A4.width - gridWidth) / 2;
  const top = MARGIN + 22;
  doc.setLineWidth(0.3);
  doc.setDrawColor(15, 23, 42);
  layout.grid.forEach((row, r) =>
    row.forEach((letter, c) => {
      if (letter === null) return;
      const x = left + c * CELL;
      const y = top + r * CELL;
      doc.rect(x, y, CELL, CELL, 'S');
      const number = layout.numbers[r][c];
      if (number !== null) {
        doc.setFont('helvetica', 'normal');
        doc.setFontSize(5.5);
        doc.text(String(number), x + 0.6, y + 2.1);
      }
      if (answers) {
        doc.setFont('helvetica', 'bold');
        doc.setFontSize(12);
        doc.text(letter, x + CELL / 2, y + CELL / 2 + 1.2, { align: 'center', baseline: 'middle' });
      }
    }),
  );

  // Clues in two columns, sized so both lists always fit on this one page.
  const cluesTop = top + gridWidth + CLUE_GAP;
  const columnWidth = (A4.width - 2 * MARGIN - 10) / 2;
  const across = clueLines(layout, 'across');
  const down = clueLines(layout, 'down');
  const rows = Math.max(across.length, down.length, 1);
  const available = A4.height - MARGIN / 2 - (cluesTop + 7);
  const fontSize = Math.max(5, Math.min(10, available / rows / lineHeightMm(1, 1.25)));
  const lh = lineHeightMm(fontSize, 1.25);
  const column = (heading: string, lines: string[], x: number) => {
    doc.setFont('helvetica', 'bold');
    doc.setFontSize(12);
    doc.text(heading, x, cluesTop);
    doc.setFont('helvetica', 'normal');
    doc.setFontSize(fontSize);
    lines.forEach((line, i) =>
      doc.text(truncateToWidth(doc, pdfSafe(line), columnWidth), x, cluesTop + 7 + i * lh),
    );
  };
  column(CrosswordMessages.across, across, MARGIN);
  column(CrosswordMessages.down, down, MARGIN + columnWidth + 10);
}

/** Two pages: the answer key, then the student worksheet (spec section 9). */
export function buildCrosswordPdf(input: CrosswordPdfInput): Uint8Array {
  const doc = createPdf({ title: input.title, createdAt: input.createdAt }, JSON.stringify(input));
  drawPage(doc, input, true);
  doc.addPage();
  drawPage(doc, input, false);
  return pdfBytes(doc);
}

/** The spec names no file for the crossword; this follows the word-bingo rule so both exports look alike. */
export function crosswordFileName(title: string): string {
  return `${title.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_crossword.pdf`;
}

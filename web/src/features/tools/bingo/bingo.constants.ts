/** Every bingo string and limit from the spec (classroom-tools.md sections 5, 8, 9), shared by code and tests. */

export const BINGO_LETTERS = ['B', 'I', 'N', 'G', 'O'] as const;
export const FREE_LABEL = 'FREE';

export const MIN_CARDS = 1;
export const MAX_CARDS = 50;
export const DEFAULT_CARDS = 1;

export const NUMBER_BINGO = {
  size: 5,
  /** Numbers on a card with a FREE centre; the spec's minimum range. */
  numbersWithFree: 24,
  defaultMin: 1,
  defaultMax: 75,
  /** The Min Number input's `min`. */
  minFloor: 1,
  /** The Max Number input's `min`. */
  maxFloor: 25,
  /** Beyond the spec: keeps every number printable in a 100px cell and the caller sheet readable. */
  ceiling: 999,
  /** Printed page 500px wide with 100px cells (spec section 9). */
  printWidthPx: 500,
  printCellPx: 100,
  fileName: 'number_bingo_cards.pdf',
  title: 'Bingo',
} as const;

export const WORD_BINGO = {
  sizes: [3, 4, 5] as const,
  defaultSize: 5,
  defaultTitle: 'Word Bingo',
  fileNameSuffix: '_bingo_cards.pdf',
  pdfMargin: 20,
  pdfMaxGridWidth: 150,
  pdfMinFontSize: 10,
  pdfMaxFontSize: 18,
} as const;

export type WordBingoSize = (typeof WORD_BINGO.sizes)[number];

export const BingoMessages = {
  validationTitle: 'Validation Error',
  rangeTooSmall: 'Number range must be at least 24 numbers for a valid bingo card',
  // Beyond the spec: without the FREE centre a card holds 25 different numbers, so a 24-number range cannot fill it.
  rangeTooSmallWithoutFree: 'Number range must be at least 25 numbers for a bingo card without a FREE space',
  noWords: 'Please enter some words first!',
  tooFewWords: (needed: number, size: number) =>
    `You need at least ${needed} words for a ${size}x${size} grid!`,
  pdfError: 'Error generating PDF. Please try again.',
  generatingPdf: 'Generating PDF...',
  previewSingleCard: 'Preview Single Card',
  callerSheetTitle: 'Caller Sheet',
  callerSheetContinued: 'Caller Sheet (continued)',
  callerSheetHint: 'Call these in order and tick each one off as you call it.',
  instruction: (unit: 'numbers' | 'words', inARow: number) =>
    `Mark off ${unit} as they are called. Get ${inARow} in a row to win!`,
} as const;

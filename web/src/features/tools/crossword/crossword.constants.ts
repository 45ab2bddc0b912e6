/** Crossword strings and limits from the spec (classroom-tools.md sections 5, 8, 9), shared by code and tests. */

export const GRID_SIZE = 15;
export const DEFAULT_TITLE = 'My Crossword Puzzle';
export const CLUE_MAX_CHARS = 35;
export const CLUE_ELLIPSIS = '...';
/** Where a word that crosses nothing goes first: across rows from 2 in steps of 2, down columns from 3 in steps of 2. */
export const ACROSS_FIRST_ROW = 2;
export const DOWN_FIRST_COLUMN = 3;
export const LINE_STEP = 2;
/** A one-letter answer has no run of its own in a crossword grid, so it cannot be numbered. */
export const MIN_ANSWER_LETTERS = 2;

export const CrosswordMessages = {
  needAnAnswer: 'Please add at least one word with an answer to generate a crossword puzzle.',
  pdfError: 'There was an error generating the PDF. Please try again.',
  generatePdf: 'Generate PDF',
  generatingPdf: 'Generating PDF...',
  nothingPlaced: 'None of the answers could be placed on the grid, so there is no puzzle to print yet.',
  unplacedTitle: 'Some answers could not be placed',
  answerKey: 'Answer Key',
  worksheet: 'Student Worksheet',
  across: 'Across',
  down: 'Down',
  nameLine: 'Name: ______________________________   Date: ______________',
} as const;

export type UnplacedReason = 'too-long' | 'too-short' | 'unsupported-characters' | 'no-room';

export const UNPLACED_REASON_TEXT: Record<UnplacedReason, string> = {
  'too-long': `longer than ${GRID_SIZE} letters, so it does not fit the ${GRID_SIZE}-column grid`,
  'too-short': `needs at least ${MIN_ANSWER_LETTERS} letters`,
  'unsupported-characters': 'uses letters the printed puzzle cannot show',
  'no-room': `no free place left for it on the ${GRID_SIZE}×${GRID_SIZE} grid`,
};

import { hashString, seededRandom, shuffled } from '../shared/random';
import {
  ACROSS_FIRST_ROW,
  DOWN_FIRST_COLUMN,
  GRID_SIZE,
  LINE_STEP,
  MIN_ANSWER_LETTERS,
  type UnplacedReason,
} from './crossword.constants';

export type Direction = 'across' | 'down';

export interface CrosswordEntry {
  clue: string;
  answer: string;
}

export interface CrosswordInput {
  across: readonly CrosswordEntry[];
  down: readonly CrosswordEntry[];
}

/** Which entry of the teacher's lists a word came from. */
export interface EntryRef {
  direction: Direction;
  /** Position in that direction's list (0-based). */
  index: number;
  clue: string;
  answer: string;
}

export interface PlacedWord extends EntryRef {
  /** The answer as the grid holds it: upper case, accents and spaces removed (Ñ kept). */
  letters: string[];
  row: number;
  col: number;
  /** Standard clue number of the start square. */
  number: number;
}

export interface UnplacedWord extends EntryRef {
  reason: UnplacedReason;
}

export interface CrosswordLayout {
  size: number;
  /** Letter per square, null where no word passes. */
  grid: (string | null)[][];
  /** Clue number per square, null where no word starts. */
  numbers: (number | null)[][];
  /** Sorted by number, across before down for the same number. */
  placed: PlacedWord[];
  /** In the order the teacher listed them (across first). */
  unplaced: UnplacedWord[];
  /** How many separate groups of crossing words the grid has (0 when empty). */
  components: number;
}

const ALLOWED_LETTER = /^[A-ZÑ0-9]$/;

/**
 * Grid letters for an answer. Spanish crosswords ignore written accents, so Á and Ü become A and U, while Ñ is
 * its own letter; spaces, hyphens and punctuation are dropped. Returns null if a letter is left that the
 * printed puzzle's font cannot show (for example Cyrillic).
 */
export function answerLetters(answer: string): string[] | null {
  const letters: string[] = [];
  for (const ch of answer.normalize('NFC').toLocaleUpperCase('es')) {
    const base = ch === 'Ñ' ? ch : ch.normalize('NFD').replace(/\p{M}/gu, '');
    for (const part of base) {
      if (ALLOWED_LETTER.test(part)) letters.push(part);
      else if (/[\p{L}\p{N}]/u.test(part)) return null;
    }
  }
  return letters;
}

/** Entries with a non-blank answer, in list order (across first); blank rows are simply not part of the puzzle. */
export function answeredEntries(input: CrosswordInput): EntryRef[] {
  const refs: EntryRef[] = [];
  for (const direction of ['across', 'down'] as const) {
    input[direction].forEach((entry, index) => {
      if (entry.answer.trim())
        refs.push({ direction, index, clue: entry.clue.trim(), answer: entry.answer.trim() });
    });
  }
  return refs;
}

interface Candidate extends EntryRef {
  letters: string[];
}

interface Cell {
  letter: string;
  across: number;
  down: number;
}

interface Placement {
  word: number;
  row: number;
  col: number;
}

const STEP: Record<Direction, [number, number]> = { across: [0, 1], down: [1, 0] };

/**
 * Side of the board the connected puzzle grows on before it is pinned to the 15×15 grid: room for a 15-square
 * puzzle in any direction from the anchor, so where the anchor sits never rules out a crossing.
 */
const VIRTUAL_SIZE = GRID_SIZE * 3 - 2;

class Board {
  readonly cells: (Cell | null)[][];
  readonly placements: Placement[] = [];
  private readonly byLetter = new Map<string, [number, number][]>();
  /** How many placements existed when a square with this letter last appeared. */
  private readonly letterStamp = new Map<string, number>();
  /** Bounding box of the filled squares. */
  private box = { top: Infinity, bottom: -Infinity, left: Infinity, right: -Infinity };
  /** Placement checks done so far: the deterministic measure of effort that bounds the search. */
  work = 0;

  /**
   * `floating`: the board is larger than the grid and a placement is allowed anywhere as long as the whole
   * puzzle still fits in 15×15; `pin()` later moves it onto the real grid.
   */
  constructor(
    private readonly words: readonly Candidate[],
    readonly size: number = GRID_SIZE,
    readonly floating = false,
  ) {
    this.cells = Array.from({ length: size }, () => Array<Cell | null>(size).fill(null));
  }

  private occupied(r: number, c: number): boolean {
    return r >= 0 && r < this.size && c >= 0 && c < this.size && this.cells[r][c] !== null;
  }

  private fitsBox(row: number, col: number, endRow: number, endCol: number): boolean {
    if (!this.floating || !this.placements.length) return true;
    const height = Math.max(this.box.bottom, endRow) - Math.min(this.box.top, row) + 1;
    const width = Math.max(this.box.right, endCol) - Math.min(this.box.left, col) + 1;
    return height <= GRID_SIZE && width <= GRID_SIZE;
  }

  /** The same puzzle on the real 15×15 grid, centred. */
  pin(): Board {
    const fixed = new Board(this.words);
    fixed.work = this.work;
    if (!this.placements.length) return fixed;
    const dr = Math.floor((GRID_SIZE - (this.box.bottom - this.box.top + 1)) / 2) - this.box.top;
    const dc = Math.floor((GRID_SIZE - (this.box.right - this.box.left + 1)) / 2) - this.box.left;
    for (const p of this.placements) fixed.place(p.word, p.row + dr, p.col + dc);
    return fixed;
  }

  /**
   * How many existing words the word would cross at (row, col), or -1 if it may not go there: it must stay in the
   * grid, agree with every letter it lands on, never run along a word of its own direction, and never sit next
   * to another word except where it crosses it (so every run of squares in the grid is exactly one word).
   */
  crossings(word: number, row: number, col: number): number {
    const { letters, direction } = this.words[word];
    const [dr, dc] = STEP[direction];
    const endRow = row + dr * (letters.length - 1);
    const endCol = col + dc * (letters.length - 1);
    this.work++;
    if (row < 0 || col < 0 || endRow >= this.size || endCol >= this.size) return -1;
    if (!this.fitsBox(row, col, endRow, endCol)) return -1;
    if (this.occupied(row - dr, col - dc) || this.occupied(endRow + dr, endCol + dc)) return -1;
    let count = 0;
    for (let i = 0; i < letters.length; i++) {
      const r = row + dr * i;
      const c = col + dc * i;
      const cell = this.cells[r][c];
      if (cell) {
        if (cell.letter !== letters[i] || cell[direction] !== -1) return -1;
        count++;
      } else if (this.occupied(r + dc, c + dr) || this.occupied(r - dc, c - dr)) {
        return -1;
      }
    }
    return count;
  }

  place(word: number, row: number, col: number): void {
    const { letters, direction } = this.words[word];
    const [dr, dc] = STEP[direction];
    letters.forEach((letter, i) => {
      const r = row + dr * i;
      const c = col + dc * i;
      let cell = this.cells[r][c];
      if (!cell) {
        cell = { letter, across: -1, down: -1 };
        this.cells[r][c] = cell;
        const list = this.byLetter.get(letter) ?? [];
        list.push([r, c]);
        this.byLetter.set(letter, list);
        this.letterStamp.set(letter, this.placements.length + 1);
      }
      cell[direction] = word;
    });
    this.box = {
      top: Math.min(this.box.top, row),
      bottom: Math.max(this.box.bottom, row + dr * (letters.length - 1)),
      left: Math.min(this.box.left, col),
      right: Math.max(this.box.right, col + dc * (letters.length - 1)),
    };
    this.placements.push({ word, row, col });
  }

  /**
   * Whether a word that found no crossing when `placedThen` words were on the board might find one now: only a
   * new square with one of its letters can offer a new crossing.
   */
  mayCrossSince(word: number, placedThen: number): boolean {
    return this.words[word].letters.some((letter) => (this.letterStamp.get(letter) ?? 0) > placedThen);
  }

  /** The best place where the word crosses at least one placed word, or null if there is none. */
  bestCrossing(word: number): { row: number; col: number } | null {
    const { letters, direction } = this.words[word];
    const [dr, dc] = STEP[direction];
    const mid = (this.size - 1) / 2;
    const half = (letters.length - 1) / 2;
    let best: { row: number; col: number; score: number; distance: number } | null = null;
    const tried = new Set<string>();
    for (const [i, letter] of letters.entries()) {
      for (const [r, c] of this.byLetter.get(letter) ?? []) {
        if (this.cells[r][c]?.[direction] !== -1) continue;
        const row = r - dr * i;
        const col = c - dc * i;
        const key = `${row},${col}`;
        if (tried.has(key)) continue;
        tried.add(key);
        const score = this.crossings(word, row, col);
        if (score < 1) continue;
        // Prefer more crossings, then keeping the puzzle near the centre, then the top-left-most place.
        const distance = Math.abs(row + dr * half - mid) + Math.abs(col + dc * half - mid);
        const wins =
          !best ||
          score > best.score ||
          (score === best.score &&
            (distance < best.distance ||
              (distance === best.distance && (row < best.row || (row === best.row && col < best.col)))));
        if (wins) best = { row, col, score, distance };
      }
    }
    return best;
  }

  /**
   * A place for a word that crosses nothing. The spec's layout lines come first (across rows 2, 4, …; down
   * columns 3, 5, …), then every other line, so unconnected words still look orderly.
   */
  freeSpot(word: number): { row: number; col: number } | null {
    if (this.floating) throw new Error('pin() the board before placing unconnected words');
    const { letters, direction } = this.words[word];
    const first = direction === 'across' ? ACROSS_FIRST_ROW : DOWN_FIRST_COLUMN;
    const lines: number[] = [];
    for (let l = first; l < GRID_SIZE; l += LINE_STEP) lines.push(l);
    for (let l = 0; l < GRID_SIZE; l++) if (!lines.includes(l)) lines.push(l);
    for (const line of lines) {
      for (let along = 0; along + letters.length <= GRID_SIZE; along++) {
        const row = direction === 'across' ? line : along;
        const col = direction === 'across' ? along : line;
        if (this.crossings(word, row, col) >= 0) return { row, col };
      }
    }
    return null;
  }

  components(): number {
    const parent = this.placements.map((_, i) => i);
    const indexOf = new Map(this.placements.map((p, i) => [p.word, i]));
    const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
    for (const row of this.cells) {
      for (const cell of row) {
        if (cell && cell.across !== -1 && cell.down !== -1) {
          parent[find(indexOf.get(cell.across)!)] = find(indexOf.get(cell.down)!);
        }
      }
    }
    return new Set(parent.map((_, i) => find(i))).size;
  }

  crossingCount(): number {
    return this.cells.flat().filter((cell) => cell && cell.across !== -1 && cell.down !== -1).length;
  }
}

interface Attempt {
  board: Board;
  noRoom: number[];
}

function runAttempt(words: readonly Candidate[], order: readonly number[]): Attempt {
  // The connected puzzle grows on a floating board, so the anchor's position never blocks a crossing; it is
  // pinned to the grid once it has to share the grid with unconnected words, or at the end.
  let board = new Board(words, VIRTUAL_SIZE, true);
  const noRoom: number[] = [];
  let pending = order.slice();
  const first = pending[0];
  if (first !== undefined && canEverCross(words, first)) {
    pending.shift();
    const length = words[first].letters.length;
    const mid = Math.floor(VIRTUAL_SIZE / 2);
    const start = mid - Math.floor(length / 2);
    if (words[first].direction === 'across') board.place(first, mid, start);
    else board.place(first, start, mid);
  }
  // When each waiting word last looked for a crossing (as a count of placements), so it only looks again once
  // a square with one of its letters has appeared.
  const checkedAt = new Map<number, number>();
  while (pending.length) {
    // Keep going round while something new crosses: a word placed late can open a crossing for an earlier one.
    let progress = true;
    while (progress && pending.length) {
      progress = false;
      const still: number[] = [];
      for (const word of pending) {
        const last = checkedAt.get(word);
        const spot = last === undefined || board.mayCrossSince(word, last) ? board.bestCrossing(word) : null;
        if (spot) {
          board.place(word, spot.row, spot.col);
          progress = true;
        } else {
          checkedAt.set(word, board.placements.length);
          still.push(word);
        }
      }
      pending = still;
    }
    if (!pending.length) break;
    // Nothing left can cross anything: start a new group with the next word, then try crossings again.
    if (board.floating) board = board.pin();
    const word = pending.shift()!;
    const spot = board.freeSpot(word);
    if (spot) board.place(word, spot.row, spot.col);
    else noRoom.push(word);
  }
  if (board.floating) board = board.pin();
  // Words placed after a word ran out of room may have opened a crossing for it, so give those words another go.
  let progress = true;
  while (progress && noRoom.length) {
    progress = false;
    for (const word of noRoom.slice()) {
      const spot = board.bestCrossing(word) ?? board.freeSpot(word);
      if (!spot) continue;
      board.place(word, spot.row, spot.col);
      noRoom.splice(noRoom.indexOf(word), 1);
      progress = true;
    }
  }
  return { board, noRoom };
}

/** Whether some word of the other direction shares a letter with this one. */
function canEverCross(words: readonly Candidate[], word: number): boolean {
  const { letters, direction } = words[word];
  return words.some(
    (other) => other.direction !== direction && other.letters.some((l) => letters.includes(l)),
  );
}

function better(a: Attempt, b: Attempt): boolean {
  const placedA = a.board.placements.length;
  const placedB = b.board.placements.length;
  if (placedA !== placedB) return placedA > placedB;
  const compA = a.board.components();
  const compB = b.board.components();
  if (compA !== compB) return compA < compB;
  return a.board.crossingCount() > b.board.crossingCount();
}

/** Layout orders tried; the best result wins. All are derived from the input, so the output is deterministic. */
const SHUFFLED_ATTEMPTS = 24;
/**
 * Placement checks allowed before no further shuffled order is started. Counting checks rather than time keeps
 * the result deterministic while bounding the work for very long lists (typical lists use a fraction of it).
 */
const WORK_BUDGET = 120_000;

function attemptOrders(words: readonly Candidate[], seed: number): number[][] {
  const ids = words.map((_, i) => i);
  if (ids.length < 2) return [ids];
  const byLength = ids.slice().sort((a, b) => words[b].letters.length - words[a].letters.length || a - b);
  // Alternating directions gives each new word something perpendicular to cross early on.
  const across = byLength.filter((i) => words[i].direction === 'across');
  const down = byLength.filter((i) => words[i].direction === 'down');
  const [lead, follow] = across.length >= down.length ? [across, down] : [down, across];
  const alternating: number[] = [];
  for (let i = 0; i < lead.length; i++) {
    alternating.push(lead[i]);
    if (i < follow.length) alternating.push(follow[i]);
  }
  const random = seededRandom(seed);
  const orders = [byLength, alternating, ids];
  for (let i = 0; i < SHUFFLED_ATTEMPTS; i++) {
    // Keep the longest word first (a good anchor), shuffle the rest.
    orders.push([byLength[0], ...shuffled(byLength.slice(1), random)]);
  }
  return orders;
}

/** Clue numbers: squares that start an across or a down word, numbered left to right, top to bottom. */
function numberSquares(placements: readonly Placement[]): (number | null)[][] {
  const numbers: (number | null)[][] = Array.from({ length: GRID_SIZE }, () =>
    Array<number | null>(GRID_SIZE).fill(null),
  );
  const starts = new Set(placements.map((p) => p.row * GRID_SIZE + p.col));
  let next = 1;
  for (let r = 0; r < GRID_SIZE; r++) {
    for (let c = 0; c < GRID_SIZE; c++) if (starts.has(r * GRID_SIZE + c)) numbers[r][c] = next++;
  }
  return numbers;
}

/**
 * Lays the teacher's across and down answers out on the 15×15 grid as a real crossword: every word keeps its
 * direction, crossing words share the letter, words touch only where they cross, the grid is one connected
 * puzzle whenever the words allow it, and the result depends only on the input. Anything that cannot go on the
 * grid is returned in `unplaced` with the reason.
 */
export function layoutCrossword(input: CrosswordInput): CrosswordLayout {
  const unplaced: UnplacedWord[] = [];
  const words: Candidate[] = [];
  for (const ref of answeredEntries(input)) {
    const letters = answerLetters(ref.answer);
    if (letters === null) unplaced.push({ ...ref, reason: 'unsupported-characters' });
    else if (letters.length > GRID_SIZE) unplaced.push({ ...ref, reason: 'too-long' });
    else if (letters.length < MIN_ANSWER_LETTERS) unplaced.push({ ...ref, reason: 'too-short' });
    else words.push({ ...ref, letters });
  }

  const seed = hashString(JSON.stringify(words.map((w) => [w.direction, w.letters.join('')])));
  let best: Attempt | null = null;
  let work = 0;
  const orders = attemptOrders(words, seed);
  for (const [i, order] of orders.entries()) {
    // The three systematic orders always run; shuffled ones only while the budget lasts.
    if (i >= 3 && work >= WORK_BUDGET) break;
    const attempt = runAttempt(words, order);
    work += attempt.board.work;
    if (!best || better(attempt, best)) best = attempt;
    // Everything placed as one puzzle: later orders could only add crossings, not worth the time.
    if (best.noRoom.length === 0 && best.board.components() <= 1) break;
  }
  const board = best?.board ?? new Board(words);
  for (const word of best?.noRoom ?? []) unplaced.push({ ...strip(words[word]), reason: 'no-room' });
  unplaced.sort((a, b) => rank(a) - rank(b));

  const numbers = numberSquares(board.placements);
  const placed: PlacedWord[] = board.placements
    .map(({ word, row, col }) => ({
      ...strip(words[word]),
      letters: words[word].letters,
      row,
      col,
      number: numbers[row][col]!,
    }))
    .sort((a, b) => a.number - b.number || (a.direction === 'across' ? -1 : 1));

  return {
    size: GRID_SIZE,
    grid: board.cells.map((row) => row.map((cell) => cell?.letter ?? null)),
    numbers,
    placed,
    unplaced,
    components: board.components(),
  };
}

function strip(word: Candidate): EntryRef {
  return { direction: word.direction, index: word.index, clue: word.clue, answer: word.answer };
}

function rank(ref: EntryRef): number {
  return (ref.direction === 'across' ? 0 : 1_000_000) + ref.index;
}

/** The spec's PDF clue text: cut at 35 characters with an ellipsis. */
export function shortClue(clue: string, max: number, ellipsis: string): string {
  const chars = Array.from(clue);
  return chars.length > max ? chars.slice(0, max).join('') + ellipsis : clue;
}

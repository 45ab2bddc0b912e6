import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { GRID_SIZE } from './crossword.constants';
import {
  answerLetters,
  layoutCrossword,
  shortClue,
  type CrosswordEntry,
  type CrosswordInput,
  type CrosswordLayout,
  type Direction,
} from './crossword-layout';

// Property suites run hundreds of cases; give them room when the machine is busy with other suites.
const PROPERTY_TIMEOUT_MS = 60_000;

const entry = (answer: string, clue = `clue for ${answer}`): CrosswordEntry => ({ clue, answer });
const input = (across: string[], down: string[]): CrosswordInput => ({
  across: across.map((a) => entry(a)),
  down: down.map((a) => entry(a)),
});

/** Maximal runs of two or more filled squares, found from the grid alone. */
function runs(grid: (string | null)[][], direction: Direction) {
  const found: { row: number; col: number; length: number }[] = [];
  for (let line = 0; line < GRID_SIZE; line++) {
    let start = -1;
    for (let along = 0; along <= GRID_SIZE; along++) {
      const [r, c] = direction === 'across' ? [line, along] : [along, line];
      const filled = along < GRID_SIZE && grid[r][c] !== null;
      if (filled && start < 0) start = along;
      if (!filled && start >= 0) {
        if (along - start >= 2) {
          found.push(
            direction === 'across'
              ? { row: line, col: start, length: along - start }
              : { row: start, col: line, length: along - start },
          );
        }
        start = -1;
      }
    }
  }
  return found;
}

/** Could the word go at (row, col) on this finished grid without breaking the rules? Checked from runs, independently of the generator. */
function fitsAnywhere(layout: CrosswordLayout, letters: string[], direction: Direction): boolean {
  for (let row = 0; row < GRID_SIZE; row++) {
    for (let col = 0; col < GRID_SIZE; col++) {
      const grid = layout.grid.map((r) => r.slice());
      const [dr, dc] = direction === 'across' ? [0, 1] : [1, 0];
      if (row + dr * (letters.length - 1) >= GRID_SIZE || col + dc * (letters.length - 1) >= GRID_SIZE)
        continue;
      let ok = true;
      letters.forEach((letter, i) => {
        const cell = grid[row + dr * i][col + dc * i];
        if (cell !== null && cell !== letter) ok = false;
        grid[row + dr * i][col + dc * i] = letter;
      });
      if (!ok) continue;
      const words = layout.placed.map((p) => ({
        row: p.row,
        col: p.col,
        length: p.letters.length,
        direction: p.direction,
      }));
      words.push({ row, col, length: letters.length, direction });
      const key = (w: { row: number; col: number; length: number }) => `${w.row},${w.col},${w.length}`;
      const same = (d: Direction) =>
        JSON.stringify(runs(grid, d).map(key).sort()) ===
        JSON.stringify(
          words
            .filter((w) => w.direction === d)
            .map(key)
            .sort(),
        );
      if (same('across') && same('down')) return true;
    }
  }
  return false;
}

function checkInvariants(source: CrosswordInput, layout: CrosswordLayout): void {
  // Every placed word inside the grid, reading its own letters: so crossing squares agree.
  for (const word of layout.placed) {
    const [dr, dc] = word.direction === 'across' ? [0, 1] : [1, 0];
    expect(word.row).toBeGreaterThanOrEqual(0);
    expect(word.col).toBeGreaterThanOrEqual(0);
    expect(word.row + dr * (word.letters.length - 1)).toBeLessThan(GRID_SIZE);
    expect(word.col + dc * (word.letters.length - 1)).toBeLessThan(GRID_SIZE);
    word.letters.forEach((letter, i) =>
      expect(layout.grid[word.row + dr * i][word.col + dc * i]).toBe(letter),
    );
    // It kept the direction and answer of the entry it came from.
    expect(source[word.direction][word.index].answer.trim()).toBe(word.answer);
    expect(word.letters).toEqual(answerLetters(word.answer));
  }
  // No accidental adjacency: the grid's runs are exactly the placed words.
  for (const direction of ['across', 'down'] as const) {
    const expected = layout.placed
      .filter((w) => w.direction === direction)
      .map((w) => `${w.row},${w.col},${w.letters.length}`)
      .sort();
    expect(
      runs(layout.grid, direction)
        .map((r) => `${r.row},${r.col},${r.length}`)
        .sort(),
    ).toEqual(expected);
  }
  // No stray letters.
  const covered = new Set<string>();
  for (const w of layout.placed) {
    const [dr, dc] = w.direction === 'across' ? [0, 1] : [1, 0];
    w.letters.forEach((_, i) => covered.add(`${w.row + dr * i},${w.col + dc * i}`));
  }
  layout.grid.forEach((row, r) =>
    row.forEach((cell, c) => expect(cell !== null).toBe(covered.has(`${r},${c}`))),
  );
  // Every answered entry is either placed or reported, exactly once.
  const answered = (['across', 'down'] as const).flatMap((d) =>
    source[d].flatMap((e, i) => (e.answer.trim() ? [`${d}:${i}`] : [])),
  );
  const accounted = [...layout.placed, ...layout.unplaced].map((w) => `${w.direction}:${w.index}`);
  expect(accounted.sort()).toEqual(answered.sort());
  // Reported words really could not go anywhere.
  for (const u of layout.unplaced) {
    const letters = answerLetters(u.answer);
    if (u.reason === 'too-long') expect(letters!.length).toBeGreaterThan(GRID_SIZE);
    if (u.reason === 'too-short') expect(letters!.length).toBeLessThan(2);
    if (u.reason === 'unsupported-characters') expect(letters).toBeNull();
    if (u.reason === 'no-room') expect(fitsAnywhere(layout, letters!, u.direction)).toBe(false);
  }
  // Standard numbering: start squares numbered 1..n in reading order.
  const starts = new Set(layout.placed.map((w) => `${w.row},${w.col}`));
  let next = 1;
  layout.numbers.forEach((row, r) =>
    row.forEach((n, c) => {
      if (starts.has(`${r},${c}`)) expect(n).toBe(next++);
      else expect(n).toBeNull();
    }),
  );
  for (const w of layout.placed) expect(w.number).toBe(layout.numbers[w.row][w.col]);
}

describe('answerLetters', () => {
  it('upper-cases, drops accents, spaces and punctuation but keeps Ñ', () => {
    expect(answerLetters('Buenos días')).toEqual([...'BUENOSDIAS']);
    expect(answerLetters('niño')).toEqual([...'NIÑO']);
    expect(answerLetters('pingüino')).toEqual([...'PINGUINO']);
    expect(answerLetters("o'clock-2")).toEqual([...'OCLOCK2']);
  });

  it('refuses letters the printed font cannot show', () => {
    expect(answerLetters('кошка')).toBeNull();
  });
});

describe('shortClue', () => {
  it('cuts at 35 characters and adds an ellipsis', () => {
    expect(shortClue('a'.repeat(35), 35, '...')).toBe('a'.repeat(35));
    expect(shortClue('b'.repeat(36), 35, '...')).toBe(`${'b'.repeat(35)}...`);
  });
});

describe('layoutCrossword', () => {
  it('crosses an across and a down word on their shared letter', () => {
    const source = input(['GATO'], ['PERRO']);
    const layout = layoutCrossword(source);
    checkInvariants(source, layout);
    expect(layout.placed).toHaveLength(2);
    expect(layout.components).toBe(1);
    const [across, down] = [
      layout.placed.find((w) => w.direction === 'across')!,
      layout.placed.find((w) => w.direction === 'down')!,
    ];
    // They share the O: the last letter of both.
    expect(across.row).toBe(down.row + 4);
    expect(across.col + 3).toBe(down.col);
  });

  it('builds one connected puzzle from a typical vocabulary list', () => {
    const source = input(
      ['ESCUELA', 'LIBRO', 'MESA', 'LAPIZ', 'CUADERNO'],
      ['MAESTRA', 'CLASE', 'SILLA', 'PIZARRA', 'ALUMNO'],
    );
    const layout = layoutCrossword(source);
    checkInvariants(source, layout);
    expect(layout.unplaced).toEqual([]);
    expect(layout.components).toBe(1);
  });

  it('connects words whose only crossing is at the edge of the grid', () => {
    const source = input(['AXXXXXXXXXXXXX'], ['ABCDEFGHIJKLMNO']);
    const layout = layoutCrossword(source);
    checkInvariants(source, layout);
    expect(layout.components).toBe(1);
    expect(layout.placed.map((w) => [w.direction, w.row, w.col])).toEqual([
      ['across', 0, 0],
      ['down', 0, 0],
    ]);
  });

  it('numbers clues in reading order, sharing a number when across and down start on the same square', () => {
    const source = input(['CASA'], ['CIELO']);
    const layout = layoutCrossword(source);
    checkInvariants(source, layout);
    const numbers = layout.placed.map((w) => `${w.number}${w.direction[0]}`);
    expect(numbers).toEqual(['1a', '1d']);
  });

  it('keeps words of one direction apart when nothing can cross them, starting at the spec lines', () => {
    const source = input(['UNO', 'DOS', 'TRES'], []);
    const layout = layoutCrossword(source);
    checkInvariants(source, layout);
    expect(layout.placed).toHaveLength(3);
    expect(layout.components).toBe(3);
  });

  it('reports answers that are too long, too short or unprintable, naming the entry', () => {
    const source: CrosswordInput = {
      across: [entry('ELECTROENCEFALOGRAFISTA'), entry('GATO'), entry('кот'), entry('  ', 'blank row')],
      down: [entry('A'), entry('PATO')],
    };
    const layout = layoutCrossword(source);
    checkInvariants(source, layout);
    expect(layout.unplaced.map((u) => [u.direction, u.index, u.reason])).toEqual([
      ['across', 0, 'too-long'],
      ['across', 2, 'unsupported-characters'],
      ['down', 0, 'too-short'],
    ]);
    expect(layout.placed.map((w) => w.answer).sort()).toEqual(['GATO', 'PATO']);
  });

  it('accepts an answer of exactly 15 letters and reports the one that has no room left', () => {
    const fifteen = 'ABCDEFGHIJKLMNO';
    const source = input(
      Array.from({ length: 9 }, () => fifteen),
      [],
    );
    const layout = layoutCrossword(source);
    checkInvariants(source, layout);
    expect(layout.placed).toHaveLength(8);
    expect(layout.unplaced).toEqual([
      expect.objectContaining({ direction: 'across', index: 8, reason: 'no-room' }),
    ]);
  });

  it('is deterministic for the same input', () => {
    const source = input(['MANZANA', 'PERA', 'UVA', 'NARANJA'], ['PLATANO', 'FRESA', 'MELON', 'KIWI']);
    expect(layoutCrossword(source)).toEqual(layoutCrossword(structuredClone(source)));
  });

  const word = fc
    .array(fc.constantFrom(...'AEIOSNRTLCÑÁ'), { minLength: 1, maxLength: 17 })
    .map((letters) => letters.join(''));
  const entries = fc.array(
    fc.record({
      clue: fc.string({ maxLength: 50 }),
      answer: fc.oneof(
        { weight: 12, arbitrary: word },
        { weight: 1, arbitrary: fc.constantFrom('', '  ', 'ab cd', 'жук', 'x-y') },
      ),
    }),
    { maxLength: 14 },
  );

  it(
    'keeps every invariant on random inputs (property)',
    () => {
      fc.assert(
        fc.property(entries, entries, (across, down) => {
          const source = { across, down };
          const layout = layoutCrossword(source);
          checkInvariants(source, layout);
          expect(layoutCrossword(structuredClone(source))).toEqual(layout);
        }),
        { numRuns: 200 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'connects an across and a down word whenever they share a letter and fit (property)',
    () => {
      fc.assert(
        fc.property(word, word, (a, d) => {
          const [la, ld] = [answerLetters(a)!, answerLetters(d)!];
          fc.pre(la.length >= 2 && ld.length >= 2 && la.length <= GRID_SIZE && ld.length <= GRID_SIZE);
          fc.pre(la.some((l) => ld.includes(l)));
          const layout = layoutCrossword(input([a], [d]));
          expect(layout.placed).toHaveLength(2);
          expect(layout.components).toBe(1);
        }),
        { numRuns: 200 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});

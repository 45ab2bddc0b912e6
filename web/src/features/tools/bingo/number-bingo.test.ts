import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { seededRandom } from '../shared/random';
import { cardValues, centreIndex } from './bingo-card';
import { BingoMessages } from './bingo.constants';
import {
  defaultNumberBingoForm,
  generateNumberBingoCards,
  normalizeNumberBingoForm,
  numberCallOrder,
  validateNumberBingo,
  type NumberBingoSettings,
} from './number-bingo';

// Property suites run hundreds of cases; give them room when the machine is busy with other suites.
const PROPERTY_TIMEOUT_MS = 60_000;

const settings = (over: Partial<NumberBingoSettings> = {}): NumberBingoSettings => ({
  min: 1,
  max: 75,
  cards: 1,
  includeFree: true,
  callerSheet: false,
  ...over,
});

describe('normalizeNumberBingoForm', () => {
  it('uses the spec defaults: 1 to 75, one card, FREE on', () => {
    expect(normalizeNumberBingoForm(defaultNumberBingoForm)).toEqual(settings());
  });

  it('falls back to 1, 75 and 1 when an input is not a number', () => {
    const out = normalizeNumberBingoForm({ ...defaultNumberBingoForm, min: 'abc', max: '', cards: ' ' });
    expect(out).toMatchObject({ min: 1, max: 75, cards: 1 });
  });

  it('raises values below the inputs minimums and clamps cards to 1-50', () => {
    expect(
      normalizeNumberBingoForm({ ...defaultNumberBingoForm, min: '0', max: '10', cards: '0' }),
    ).toMatchObject({
      min: 1,
      max: 25,
      cards: 1,
    });
    expect(normalizeNumberBingoForm({ ...defaultNumberBingoForm, min: '-7', cards: '51' })).toMatchObject({
      min: 1,
      cards: 50,
    });
    expect(normalizeNumberBingoForm({ ...defaultNumberBingoForm, max: '5000' }).max).toBe(999);
  });
});

describe('validateNumberBingo', () => {
  it('rejects a range under 24 numbers with the spec message', () => {
    expect(validateNumberBingo(settings({ min: 10, max: 32 }))).toBe(BingoMessages.rangeTooSmall);
    expect(validateNumberBingo(settings({ min: 60, max: 50 }))).toBe(BingoMessages.rangeTooSmall);
    expect(BingoMessages.rangeTooSmall).toBe(
      'Number range must be at least 24 numbers for a valid bingo card',
    );
  });

  it('accepts exactly 24 numbers with a FREE centre but needs 25 without it', () => {
    expect(validateNumberBingo(settings({ min: 10, max: 33 }))).toBeNull();
    expect(validateNumberBingo(settings({ min: 10, max: 33, includeFree: false }))).toBe(
      BingoMessages.rangeTooSmallWithoutFree,
    );
    expect(validateNumberBingo(settings({ min: 10, max: 34, includeFree: false }))).toBeNull();
  });
});

describe('generateNumberBingoCards', () => {
  it('puts FREE in the centre and 24 different in-range numbers around it', () => {
    const [card] = generateNumberBingoCards(settings(), seededRandom(1));
    expect(card.size).toBe(5);
    expect(card.cells).toHaveLength(25);
    expect(card.cells[centreIndex(5)]).toEqual({ free: true });
    const values = cardValues(card).map(Number);
    expect(values).toHaveLength(24);
    expect(new Set(values).size).toBe(24);
    for (const v of values) expect(v >= 1 && v <= 75 && Number.isInteger(v)).toBe(true);
  });

  it('fills the centre with a 25th number when FREE is off', () => {
    const [card] = generateNumberBingoCards(settings({ includeFree: false }), seededRandom(2));
    expect(card.cells.every((c) => !c.free)).toBe(true);
    expect(new Set(cardValues(card)).size).toBe(25);
  });

  it('draws from the whole range, not only its start', () => {
    const seen = new Set<number>();
    for (const card of generateNumberBingoCards(settings({ cards: 50 }), seededRandom(3))) {
      for (const v of cardValues(card)) seen.add(Number(v));
    }
    expect(seen.size).toBe(75);
  });

  it('refuses settings that fail validation', () => {
    expect(() => generateNumberBingoCards(settings({ min: 1, max: 20 }), seededRandom(1))).toThrow(
      BingoMessages.rangeTooSmall,
    );
  });

  it('keeps every card of a batch distinct, even when the random source repeats itself', () => {
    const stuck = () => 0;
    const cards = generateNumberBingoCards(settings({ cards: 50, min: 1, max: 25 }), stuck);
    const keys = cards.map((c) => cardValues(c).join(','));
    expect(new Set(keys).size).toBe(50);
    for (const card of cards) expect(cardValues(card).every((v) => +v >= 1 && +v <= 25)).toBe(true);
  });

  it(
    'holds the card invariants for any valid settings (property)',
    () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 500 }),
          fc.integer({ min: 23, max: 400 }),
          fc.integer({ min: 1, max: 50 }),
          fc.boolean(),
          fc.integer(),
          (min, span, cards, includeFree, seed) => {
            const s = settings({
              min,
              max: Math.min(999, min + span + (includeFree ? 0 : 1)),
              cards,
              includeFree,
            });
            fc.pre(validateNumberBingo(s) === null);
            const batch = generateNumberBingoCards(s, seededRandom(seed));
            expect(batch).toHaveLength(cards);
            const keys = new Set<string>();
            for (const card of batch) {
              const values = cardValues(card).map(Number);
              expect(values).toHaveLength(includeFree ? 24 : 25);
              expect(new Set(values).size).toBe(values.length);
              expect(values.every((v) => v >= s.min && v <= s.max)).toBe(true);
              expect(card.cells[12].free).toBe(includeFree);
              keys.add(values.join(','));
            }
            expect(keys.size).toBe(cards);
          },
        ),
        { numRuns: 150 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});

describe('numberCallOrder', () => {
  it('lists every number of the range exactly once', () => {
    const calls = numberCallOrder(settings({ min: 5, max: 40 }), seededRandom(9));
    expect(calls).toHaveLength(36);
    expect([...calls].map(Number).sort((a, b) => a - b)).toEqual(Array.from({ length: 36 }, (_, i) => i + 5));
    expect(calls).not.toEqual([...calls].sort((a, b) => +a - +b));
  });
});

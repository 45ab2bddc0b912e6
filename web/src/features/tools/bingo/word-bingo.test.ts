import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { seededRandom } from '../shared/random';
import { cardValues, centreIndex } from './bingo-card';
import { BingoMessages, type WordBingoSize } from './bingo.constants';
import {
  generateWordBingoCards,
  normalizeCardCount,
  parseWordList,
  requiredWordCount,
  validateWordBingo,
  wordBingoFileName,
  wordCallOrder,
} from './word-bingo';

// Property suites run hundreds of cases; give them room when the machine is busy with other suites.
const PROPERTY_TIMEOUT_MS = 60_000;

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i + 1}`);

describe('parseWordList', () => {
  it('splits on commas and newlines, trims and drops empty entries', () => {
    expect(parseWordList(' gato, perro\n\nluna ,,\r\n sol \n')).toEqual(['gato', 'perro', 'luna', 'sol']);
    expect(parseWordList(' , \n ')).toEqual([]);
  });

  it('keeps multi-word entries whole and a case-insensitive duplicate once', () => {
    expect(parseWordList('buenos días, Gato, gato, GATO')).toEqual(['buenos días', 'Gato']);
  });
});

describe('validateWordBingo', () => {
  it('asks for words when the list is empty', () => {
    expect(validateWordBingo([], 5)).toBe('Please enter some words first!');
  });

  it('needs 24 words for 5x5 and size squared for 3x3 and 4x4', () => {
    expect(requiredWordCount(5)).toBe(24);
    expect(requiredWordCount(4)).toBe(16);
    expect(requiredWordCount(3)).toBe(9);
    expect(validateWordBingo(words(23), 5)).toBe('You need at least 24 words for a 5x5 grid!');
    expect(validateWordBingo(words(15), 4)).toBe('You need at least 16 words for a 4x4 grid!');
    expect(validateWordBingo(words(8), 3)).toBe('You need at least 9 words for a 3x3 grid!');
    expect(validateWordBingo(words(24), 5)).toBeNull();
    expect(validateWordBingo(words(9), 3)).toBeNull();
  });
});

describe('normalizeCardCount', () => {
  it('clamps to 1-50 and falls back to 1', () => {
    expect(normalizeCardCount('0')).toBe(1);
    expect(normalizeCardCount('51')).toBe(50);
    expect(normalizeCardCount('7')).toBe(7);
    expect(normalizeCardCount('seven')).toBe(1);
    expect(normalizeCardCount('')).toBe(1);
  });
});

describe('wordBingoFileName', () => {
  it('replaces non-alphanumerics with underscores, lowercases and adds the suffix', () => {
    expect(wordBingoFileName('Word Bingo')).toBe('word_bingo_bingo_cards.pdf');
    expect(wordBingoFileName('Español: Unit 3!')).toBe('espa_ol__unit_3__bingo_cards.pdf');
    expect(wordBingoFileName('   ')).toBe('word_bingo_bingo_cards.pdf');
  });
});

describe('generateWordBingoCards', () => {
  it('5x5: FREE in the centre and 24 different words from the list', () => {
    const list = words(30);
    const [card] = generateWordBingoCards({ words: list, size: 5, cards: 1 }, seededRandom(4));
    expect(card.cells[centreIndex(5)]).toEqual({ free: true });
    const values = cardValues(card);
    expect(values).toHaveLength(24);
    expect(new Set(values).size).toBe(24);
    expect(values.every((v) => list.includes(v))).toBe(true);
  });

  it('3x3 and 4x4 have no FREE square', () => {
    for (const size of [3, 4] as const) {
      const [card] = generateWordBingoCards({ words: words(size * size), size, cards: 1 }, seededRandom(5));
      expect(card.cells.some((c) => c.free)).toBe(false);
      expect(new Set(cardValues(card)).size).toBe(size * size);
    }
  });

  it('shuffles each card', () => {
    const cards = generateWordBingoCards({ words: words(24), size: 5, cards: 5 }, seededRandom(6));
    const orders = new Set(cards.map((c) => cardValues(c).join('|')));
    expect(orders.size).toBe(5);
    expect(cardValues(cards[0])).not.toEqual(words(24));
  });

  it('throws the spec alert when there are too few words', () => {
    expect(() => generateWordBingoCards({ words: words(3), size: 3, cards: 1 }, seededRandom(1))).toThrow(
      BingoMessages.tooFewWords(9, 3),
    );
  });

  it('keeps a batch of 50 distinct with the smallest list and a stuck random source', () => {
    const cards = generateWordBingoCards({ words: words(9), size: 3, cards: 50 }, () => 0);
    expect(new Set(cards.map((c) => cardValues(c).join('|'))).size).toBe(50);
  });

  it(
    'holds its invariants for any valid list, size and count (property)',
    () => {
      fc.assert(
        fc.property(
          fc.constantFrom<WordBingoSize>(3, 4, 5),
          fc.integer({ min: 0, max: 20 }),
          fc.integer({ min: 1, max: 50 }),
          fc.integer(),
          (size, extra, count, seed) => {
            const list = words(requiredWordCount(size) + extra);
            const cards = generateWordBingoCards({ words: list, size, cards: count }, seededRandom(seed));
            expect(cards).toHaveLength(count);
            const keys = new Set<string>();
            for (const card of cards) {
              expect(card.cells).toHaveLength(size * size);
              const values = cardValues(card);
              expect(new Set(values).size).toBe(values.length);
              expect(values.every((v) => list.includes(v))).toBe(true);
              expect(card.cells.filter((c) => c.free)).toHaveLength(size === 5 ? 1 : 0);
              keys.add(values.join('|'));
            }
            expect(keys.size).toBe(count);
          },
        ),
        { numRuns: 120 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});

describe('wordCallOrder', () => {
  it('calls every word once', () => {
    const list = words(30);
    const calls = wordCallOrder(list, seededRandom(7));
    expect([...calls].sort()).toEqual([...list].sort());
  });
});

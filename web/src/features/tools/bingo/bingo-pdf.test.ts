// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { inspectPdf } from '@/testing/pdf-inspect';
import { seededRandom } from '../shared/random';
import { buildNumberBingoPdf, buildWordBingoPdf } from './bingo-pdf';
import { cardValues } from './bingo-card';
import { generateNumberBingoCards, numberCallOrder } from './number-bingo';
import { generateWordBingoCards, wordCallOrder } from './word-bingo';

const createdAt = new Date('2025-01-15T10:00:00Z');
const words = Array.from({ length: 24 }, (_, i) => `palabra${i + 1}`);

describe('buildWordBingoPdf', () => {
  const cards = generateWordBingoCards({ words, size: 5, cards: 3 }, seededRandom(11));

  it('is a PDF with one card per page, each with title, instruction, headings, FREE and its words', () => {
    const pdf = inspectPdf(buildWordBingoPdf({ title: 'Unidad 3: Animales', cards, createdAt }));
    expect(pdf.header).toBe('%PDF-1.3');
    expect(pdf.pageCount).toBe(3);
    pdf.pages.forEach((text, i) => {
      expect(text[0]).toBe('Unidad 3: Animales');
      expect(text).toContain('Mark off words as they are called. Get 5 in a row to win!');
      for (const letter of ['B', 'I', 'N', 'G', 'O']) expect(text).toContain(letter);
      expect(text).toContain('FREE');
      for (const word of cardValues(cards[i])) expect(text).toContain(word);
      expect(text).toContain(`Card ${i + 1} of 3`);
    });
  });

  it('gives identical bytes for identical input and date', () => {
    const a = buildWordBingoPdf({ title: 'T', cards, createdAt });
    const b = buildWordBingoPdf({ title: 'T', cards, createdAt });
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it('3x3 cards have no B-I-N-G-O headings and no FREE square, and ask for 3 in a row', () => {
    const small = generateWordBingoCards({ words: words.slice(0, 9), size: 3, cards: 1 }, seededRandom(1));
    const [page] = inspectPdf(buildWordBingoPdf({ title: 'Small', cards: small, createdAt })).pages;
    expect(page).not.toContain('FREE');
    expect(page).not.toContain('B');
    expect(page).toContain('Mark off words as they are called. Get 3 in a row to win!');
  });

  it('keeps cell text between 10 and 18 points, wrapping long words', () => {
    const long = generateWordBingoCards(
      { words: words.map((w) => `${w} extraordinariamente largo`), size: 5, cards: 1 },
      seededRandom(2),
    );
    const pdf = inspectPdf(buildWordBingoPdf({ title: 'Long', cards: long, createdAt }));
    const sizes = pdf.fontSizes.flat();
    expect(sizes.length).toBeGreaterThan(0);
    // Title 22, headings 24, instruction 11, footer 9; every other size is a cell's.
    const cellSizes = sizes.filter((s) => ![22, 24, 11, 9].includes(s));
    expect(cellSizes.every((s) => s >= 10 && s <= 18)).toBe(true);
  });

  it('adds the caller sheet after the cards, listing every word once', () => {
    const calls = wordCallOrder(words, seededRandom(3));
    const pdf = inspectPdf(buildWordBingoPdf({ title: 'T', cards, calls, createdAt }));
    expect(pdf.pageCount).toBe(4);
    const last = pdf.pages[3];
    expect(last[0]).toBe('Caller Sheet');
    calls.forEach((word, i) => expect(last).toContain(`${i + 1}. ${word}`));
  });
});

describe('buildNumberBingoPdf', () => {
  const settings = { min: 1, max: 75, cards: 2, includeFree: true, callerSheet: true };

  it('prints each card on its own page with headings, FREE and its numbers, then the caller sheet', () => {
    const cards = generateNumberBingoCards(settings, seededRandom(5));
    const calls = numberCallOrder(settings, seededRandom(6));
    const pdf = inspectPdf(buildNumberBingoPdf({ cards, calls, createdAt }));
    expect(pdf.pageCount).toBe(3);
    for (const [i, card] of cards.entries()) {
      expect(pdf.pages[i]).toContain('Mark off numbers as they are called. Get 5 in a row to win!');
      expect(pdf.pages[i]).toContain('FREE');
      for (const n of cardValues(card)) expect(pdf.pages[i]).toContain(n);
    }
    expect(pdf.pages[2].filter((t) => /^\d+\. \d+$/.test(t))).toHaveLength(75);
  });

  it('spreads a long caller sheet over continuation pages', () => {
    const wide = { ...settings, min: 1, max: 999, cards: 1 };
    const cards = generateNumberBingoCards(wide, seededRandom(7));
    const pdf = inspectPdf(
      buildNumberBingoPdf({ cards, calls: numberCallOrder(wide, seededRandom(8)), createdAt }),
    );
    expect(pdf.pageCount).toBeGreaterThan(2);
    expect(pdf.pages.at(-1)?.[0]).toBe('Caller Sheet (continued)');
    const listed = pdf.pages
      .slice(1)
      .flat()
      .filter((t) => /^\d+\. \d+$/.test(t));
    expect(listed).toHaveLength(999);
  });
});

import { shuffled, type Random } from '../shared/random';
import { drawDistinctCards, type BingoCard } from './bingo-card';
import {
  BingoMessages,
  DEFAULT_CARDS,
  MAX_CARDS,
  MIN_CARDS,
  WORD_BINGO,
  type WordBingoSize,
} from './bingo.constants';

/**
 * Splits the word box on commas or newlines, trims, drops empties (spec section 3). Beyond the spec, a word
 * repeated with different case is kept once: the same word twice on a card would make it unfair.
 */
export function parseWordList(text: string): string[] {
  const seen = new Set<string>();
  const words: string[] = [];
  for (const part of text.split(/[,\r\n]+/)) {
    const word = part.trim();
    if (!word) continue;
    const key = word.toLocaleLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    words.push(word);
  }
  return words;
}

export function isWordBingoSize(value: number): value is WordBingoSize {
  return (WORD_BINGO.sizes as readonly number[]).includes(value);
}

/** 5x5 has a FREE centre, so it needs 24 words; 3x3 and 4x4 need one word per square. */
export function requiredWordCount(size: WordBingoSize): number {
  return size === 5 ? 24 : size * size;
}

export function hasFreeCentre(size: WordBingoSize): boolean {
  return size === 5;
}

/** Clamped to 1–50; anything that is not a number falls back to 1. */
export function normalizeCardCount(text: string): number {
  const n = Number.parseInt(text.trim(), 10);
  if (Number.isNaN(n)) return DEFAULT_CARDS;
  return Math.min(MAX_CARDS, Math.max(MIN_CARDS, n));
}

/** The alert text for a word list that cannot fill a card, or null when it can. */
export function validateWordBingo(words: readonly string[], size: WordBingoSize): string | null {
  if (words.length === 0) return BingoMessages.noWords;
  const needed = requiredWordCount(size);
  if (words.length < needed) return BingoMessages.tooFewWords(needed, size);
  return null;
}

function squaresToFill(size: WordBingoSize): number {
  return size * size - (hasFreeCentre(size) ? 1 : 0);
}

/** Shuffles the words and fills the squares from them, reusing words cyclically if there are fewer than squares. */
function fillFrom(words: readonly string[], squares: number, random: Random): string[] {
  const order = shuffled(words, random);
  return Array.from({ length: squares }, (_, i) => order[i % order.length]);
}

export interface WordBingoSettings {
  words: readonly string[];
  size: WordBingoSize;
  cards: number;
}

/** Cards for a batch, all different; throws with the spec's alert text if the words cannot fill a card. */
export function generateWordBingoCards(settings: WordBingoSettings, random: Random): BingoCard[] {
  const problem = validateWordBingo(settings.words, settings.size);
  if (problem) throw new Error(problem);
  const squares = squaresToFill(settings.size);
  return drawDistinctCards(
    settings.cards,
    settings.size,
    hasFreeCentre(settings.size),
    (rnd) => fillFrom(settings.words, squares, rnd),
    random,
  );
}

/** Every word once, in the order the caller reads them out. */
export function wordCallOrder(words: readonly string[], random: Random): string[] {
  return shuffled(words, random);
}

/** The title, or the default when blank. */
export function effectiveTitle(title: string): string {
  return title.trim() || WORD_BINGO.defaultTitle;
}

/** Spec: the title with every non-alphanumeric replaced by an underscore, lowercased, plus '_bingo_cards.pdf'. */
export function wordBingoFileName(title: string): string {
  return (
    effectiveTitle(title)
      .replace(/[^a-z0-9]/gi, '_')
      .toLowerCase() + WORD_BINGO.fileNameSuffix
  );
}

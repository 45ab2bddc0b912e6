import { randomIndex, shuffled, type Random } from '../shared/random';
import { drawDistinctCards, type BingoCard } from './bingo-card';
import { BingoMessages, DEFAULT_CARDS, MAX_CARDS, MIN_CARDS, NUMBER_BINGO } from './bingo.constants';

/** What the configuration panel holds: the raw text of each input plus the checkboxes. */
export interface NumberBingoForm {
  min: string;
  max: string;
  cards: string;
  includeFree: boolean;
  callerSheet: boolean;
}

export interface NumberBingoSettings {
  min: number;
  max: number;
  cards: number;
  includeFree: boolean;
  callerSheet: boolean;
}

export const defaultNumberBingoForm: NumberBingoForm = {
  min: String(NUMBER_BINGO.defaultMin),
  max: String(NUMBER_BINGO.defaultMax),
  cards: String(DEFAULT_CARDS),
  includeFree: true,
  callerSheet: false,
};

function parseWhole(text: string): number {
  return Number.parseInt(text.trim(), 10);
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

/**
 * Reads the inputs the way the spec says: Min falls back to 1, Max to 75, cards to 1 when not a number.
 * Values under an input's `min` are raised to it (and the UI writes the effective value back on blur), so what
 * the teacher sees is what gets printed.
 */
export function normalizeNumberBingoForm(form: NumberBingoForm): NumberBingoSettings {
  const min = parseWhole(form.min);
  const max = parseWhole(form.max);
  const cards = parseWhole(form.cards);
  return {
    min: clamp(
      Number.isNaN(min) ? NUMBER_BINGO.defaultMin : min,
      NUMBER_BINGO.minFloor,
      NUMBER_BINGO.ceiling,
    ),
    max: clamp(
      Number.isNaN(max) ? NUMBER_BINGO.defaultMax : max,
      NUMBER_BINGO.maxFloor,
      NUMBER_BINGO.ceiling,
    ),
    cards: clamp(Number.isNaN(cards) ? DEFAULT_CARDS : cards, MIN_CARDS, MAX_CARDS),
    includeFree: form.includeFree,
    callerSheet: form.callerSheet,
  };
}

/** How many numbers one card holds: 24 around a FREE centre, 25 without it. */
export function numbersPerCard(includeFree: boolean): number {
  return includeFree ? NUMBER_BINGO.numbersWithFree : NUMBER_BINGO.numbersWithFree + 1;
}

/** The spec's range check; returns the toast message, or null when the settings can make cards. */
export function validateNumberBingo(settings: NumberBingoSettings): string | null {
  const range = settings.max - settings.min + 1;
  if (range < NUMBER_BINGO.numbersWithFree) return BingoMessages.rangeTooSmall;
  if (range < numbersPerCard(settings.includeFree)) return BingoMessages.rangeTooSmallWithoutFree;
  return null;
}

/** Draws `count` different numbers from [min, max] without building the whole range (partial Fisher–Yates). */
function drawNumbers(min: number, max: number, count: number, random: Random): number[] {
  const picked = new Map<number, number>();
  const size = max - min + 1;
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const j = i + randomIndex(random, size - i);
    const atJ = picked.get(j) ?? j;
    const atI = picked.get(i) ?? i;
    picked.set(j, atI);
    out.push(min + atJ);
  }
  return out;
}

/** Cards for a batch, all different; throws if the settings fail validation. */
export function generateNumberBingoCards(settings: NumberBingoSettings, random: Random): BingoCard[] {
  const problem = validateNumberBingo(settings);
  if (problem) throw new Error(problem);
  const perCard = numbersPerCard(settings.includeFree);
  return drawDistinctCards(
    settings.cards,
    NUMBER_BINGO.size,
    settings.includeFree,
    (rnd) => drawNumbers(settings.min, settings.max, perCard, rnd).map(String),
    random,
  );
}

/** Every number of the range once, in the order the caller reads them out. */
export function numberCallOrder(settings: NumberBingoSettings, random: Random): string[] {
  const all: string[] = [];
  for (let n = settings.min; n <= settings.max; n++) all.push(String(n));
  return shuffled(all, random);
}

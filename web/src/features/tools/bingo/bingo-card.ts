import { nextPermutation, type Random } from '../shared/random';

/** One square of a card: the FREE centre or a value (a number written out, or a word). */
export type BingoCell = { free: true } | { free: false; value: string };

/** A square card, cells row by row (size × size). */
export interface BingoCard {
  size: number;
  cells: BingoCell[];
}

/** Index of the centre square, or -1 when the grid has no single centre (even sizes). */
export function centreIndex(size: number): number {
  return size % 2 === 1 ? (size * size - 1) / 2 : -1;
}

export function cardRows(card: BingoCard): BingoCell[][] {
  const rows: BingoCell[][] = [];
  for (let r = 0; r < card.size; r++) rows.push(card.cells.slice(r * card.size, (r + 1) * card.size));
  return rows;
}

/** The values of the playable squares in order; the identity of a card for the distinctness guarantee. */
export function cardValues(card: BingoCard): string[] {
  return card.cells.flatMap((cell) => (cell.free ? [] : [cell.value]));
}

function buildCard(size: number, freeCentre: boolean, values: readonly string[]): BingoCard {
  const centre = freeCentre ? centreIndex(size) : -1;
  const cells: BingoCell[] = [];
  let next = 0;
  for (let i = 0; i < size * size; i++) {
    cells.push(i === centre ? { free: true } : { free: false, value: values[next++] });
  }
  return { size, cells };
}

const SEPARATOR = '\u0000';
const compareStrings = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Draws `count` cards and guarantees no two are the same grid. A drawn card that repeats an earlier one is
 * stepped through the permutations of its own squares until it is new: that ends after at most `count`
 * steps whenever the squares have at least `count` arrangements, which every valid bingo input has
 * (≥ 9 different values), so the guarantee does not depend on the random source being any good.
 */
export function drawDistinctCards(
  count: number,
  size: number,
  freeCentre: boolean,
  drawValues: (random: Random) => string[],
  random: Random,
): BingoCard[] {
  const seen = new Set<string>();
  const cards: BingoCard[] = [];
  for (let n = 0; n < count; n++) {
    const values = drawValues(random);
    let key = values.join(SEPARATOR);
    let steps = 0;
    while (seen.has(key)) {
      if (++steps > count) throw new Error('Not enough different values to make distinct bingo cards');
      nextPermutation(values, compareStrings);
      key = values.join(SEPARATOR);
    }
    seen.add(key);
    cards.push(buildCard(size, freeCentre, values));
  }
  return cards;
}

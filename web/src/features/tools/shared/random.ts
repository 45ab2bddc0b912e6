/** A source of uniform numbers in [0, 1), like Math.random. Generators take one so tests can fix the seed. */
export type Random = () => number;

/** mulberry32: tiny, fast, good enough for shuffling cards; not for anything secret. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a over UTF-16 code units: a stable seed derived from the input, so equal input gives equal output. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** An integer in [0, bound). Clamps so a Random that returns exactly 1 (a faulty one) cannot overflow. */
export function randomIndex(random: Random, bound: number): number {
  return Math.min(bound - 1, Math.floor(random() * bound));
}

/** Fisher–Yates shuffle into a new array. */
export function shuffled<T>(items: readonly T[], random: Random): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomIndex(random, i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * Rearranges `items` into the lexicographically next permutation (wrapping to the first after the last),
 * comparing with `compare`. Walking this cycle visits every distinct arrangement, which is what lets the
 * bingo generators guarantee distinct cards without relying on luck.
 */
export function nextPermutation<T>(items: T[], compare: (a: T, b: T) => number): void {
  let i = items.length - 2;
  while (i >= 0 && compare(items[i], items[i + 1]) >= 0) i--;
  if (i >= 0) {
    let j = items.length - 1;
    while (compare(items[j], items[i]) <= 0) j--;
    [items[i], items[j]] = [items[j], items[i]];
  }
  let lo = i + 1;
  let hi = items.length - 1;
  while (lo < hi) {
    [items[lo], items[hi]] = [items[hi], items[lo]];
    lo++;
    hi--;
  }
}

import { describe, expect, it } from 'vitest';
import { newIdempotencyKey, shuffledOrder } from './attempt';

describe('shuffledOrder', () => {
  it('is a permutation of the question indexes', () => {
    for (let i = 0; i < 50; i += 1)
      expect([...shuffledOrder(7)].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('follows the random source (Fisher–Yates)', () => {
    expect(shuffledOrder(3, () => 0)).toEqual([1, 2, 0]);
    expect(shuffledOrder(3, () => 0.999)).toEqual([0, 1, 2]);
  });

  it('varies between attempts', () => {
    const seen = new Set(Array.from({ length: 30 }, () => shuffledOrder(6).join()));
    expect(seen.size).toBeGreaterThan(1);
  });
});

describe('newIdempotencyKey', () => {
  it('is a fresh v4 UUID, also without crypto.randomUUID (plain-http origins)', () => {
    const v4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(newIdempotencyKey()).toMatch(v4);
    expect(newIdempotencyKey()).not.toBe(newIdempotencyKey());
    const original = crypto.randomUUID;
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      expect(newIdempotencyKey()).toMatch(v4);
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: original, configurable: true });
    }
  });
});

import { median, rotate, round, spread } from './stats';

describe('stats', () => {
  it('takes the middle value, or the mean of the two middle ones, whatever the input order', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
  });

  it('refuses the median of nothing', () => {
    expect(() => median([])).toThrow('median of no values');
  });

  it('keeps the values with their median, lowest and highest', () => {
    expect(spread([3, 9, 1])).toEqual({ median: 3, min: 1, max: 9, values: [3, 9, 1] });
  });

  it('rotates so that each round starts with another contender', () => {
    const items = ['bare', 'direct', 'gateway'];
    expect(rotate(items, 0)).toEqual(['bare', 'direct', 'gateway']);
    expect(rotate(items, 1)).toEqual(['direct', 'gateway', 'bare']);
    expect(rotate(items, 2)).toEqual(['gateway', 'bare', 'direct']);
    expect(rotate(items, 3)).toEqual(items);
    expect(rotate(items, -1)).toEqual(['gateway', 'bare', 'direct']);
    expect(rotate([], 2)).toEqual([]);
  });

  it('rounds to the given digits', () => {
    expect(round(1.23456)).toBe(1.23);
    expect(round(1.23456, 3)).toBe(1.235);
  });
});

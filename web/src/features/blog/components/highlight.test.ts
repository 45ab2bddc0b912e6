import { describe, expect, it } from 'vitest';
import { pageWindow } from './blog-list-page';
import { searchWords, splitMatches } from './highlight';

describe('search highlighting', () => {
  it('splits the query into distinct lower-case words', () => {
    expect(searchWords('  Verbos  verbos ser ')).toEqual(['verbos', 'ser']);
    expect(searchWords('   ')).toEqual([]);
  });

  it('marks every case-insensitive occurrence and keeps the rest as text', () => {
    expect(splitMatches('Ser and SER y estar', ['ser'])).toEqual([
      { text: 'Ser', match: true },
      { text: ' and ', match: false },
      { text: 'SER', match: true },
      { text: ' y estar', match: false },
    ]);
  });

  it('treats regular-expression characters in the query literally', () => {
    expect(splitMatches('a+b (c)', ['(c)'])).toEqual([
      { text: 'a+b ', match: false },
      { text: '(c)', match: true },
    ]);
  });
});

describe('pagination window', () => {
  it('shows first, last and two pages either side of the current one, with gaps', () => {
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(1, 10)).toEqual([1, 2, 3, null, 10]);
    expect(pageWindow(6, 12)).toEqual([1, null, 4, 5, 6, 7, 8, null, 12]);
    expect(pageWindow(10, 10)).toEqual([1, null, 8, 9, 10]);
  });
});

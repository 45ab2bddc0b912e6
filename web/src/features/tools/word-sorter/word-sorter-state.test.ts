import { describe, expect, it } from 'vitest';
import { buildPrintableHtml, escapeHtml } from './printable-page';
import { initialSorterState, isEmpty, newWordId, sorterReducer, type SorterState } from './word-sorter-state';

const add = (state: SorterState, id: string, text: string) => sorterReducer(state, { type: 'add', id, text });

describe('sorterReducer', () => {
  it('starts with two empty lists titled List 1 and List 2', () => {
    expect(initialSorterState).toEqual({ lists: [[], []], titles: ['List 1', 'List 2'] });
    expect(isEmpty(initialSorterState)).toBe(true);
  });

  it('adds trimmed words to list 1 only and ignores blank ones', () => {
    let s = add(initialSorterState, 'a', '  gato ');
    s = add(s, 'b', '   ');
    s = add(s, 'c', 'perro');
    expect(s.lists[0].map((w) => w.text)).toEqual(['gato', 'perro']);
    expect(s.lists[1]).toEqual([]);
  });

  it('moves a word between lists, at a position or to the end', () => {
    let s = add(add(add(initialSorterState, 'a', 'uno'), 'b', 'dos'), 'c', 'tres');
    s = sorterReducer(s, { type: 'move', id: 'b', to: 1 });
    s = sorterReducer(s, { type: 'move', id: 'c', to: 1, index: 0 });
    expect(s.lists[0].map((w) => w.text)).toEqual(['uno']);
    expect(s.lists[1].map((w) => w.text)).toEqual(['tres', 'dos']);
    s = sorterReducer(s, { type: 'move', id: 'c', to: 0 });
    expect(s.lists[0].map((w) => w.text)).toEqual(['uno', 'tres']);
    expect(sorterReducer(s, { type: 'move', id: 'missing', to: 1 })).toBe(s);
  });

  it('removes a word from whichever list holds it', () => {
    let s = add(add(initialSorterState, 'a', 'uno'), 'b', 'dos');
    s = sorterReducer(s, { type: 'move', id: 'b', to: 1 });
    s = sorterReducer(s, { type: 'remove', id: 'b' });
    expect(s.lists).toEqual([[{ id: 'a', text: 'uno' }], []]);
  });

  it('renames a list, keeping the old title when the new one is blank', () => {
    let s = sorterReducer(initialSorterState, { type: 'rename', list: 1, title: '  Verbos ' });
    expect(s.titles).toEqual(['List 1', 'Verbos']);
    s = sorterReducer(s, { type: 'rename', list: 1, title: '  ' });
    expect(s.titles).toEqual(['List 1', 'Verbos']);
  });

  it('clears both lists but keeps the titles', () => {
    let s = add(initialSorterState, 'a', 'uno');
    s = sorterReducer(s, { type: 'rename', list: 0, title: 'Nouns' });
    s = sorterReducer(s, { type: 'clear' });
    expect(s).toEqual({ lists: [[], []], titles: ['Nouns', 'List 2'] });
  });
});

describe('newWordId', () => {
  it('is timestamp-based and unique within the same millisecond', () => {
    const a = newWordId(1700000000000);
    const b = newWordId(1700000000000);
    expect(a).toMatch(/^1700000000000-\d+$/);
    expect(a).not.toBe(b);
  });
});

describe('buildPrintableHtml', () => {
  it('prints the student name, the date and both titled lists', () => {
    let s = add(add(initialSorterState, 'a', 'gato'), 'b', 'correr');
    s = sorterReducer(s, { type: 'move', id: 'b', to: 1 });
    s = sorterReducer(s, { type: 'rename', list: 0, title: 'Sustantivos' });
    const html = buildPrintableHtml({ studentName: 'Ana', state: s, date: new Date(2025, 0, 15) });
    expect(html).toContain('Student: Ana');
    expect(html).toContain('January 15, 2025');
    expect(html).toMatch(/<h2>Sustantivos <span class="count">\(1\)<\/span><\/h2><ol><li>gato<\/li><\/ol>/);
    expect(html).toMatch(/<h2>List 2 <span class="count">\(1\)<\/span><\/h2><ol><li>correr<\/li><\/ol>/);
  });

  it('escapes everything typed so no markup or script can run', () => {
    const s = add(initialSorterState, 'a', '<img src=x onerror=alert(1)>');
    const renamed = sorterReducer(s, { type: 'rename', list: 1, title: '</h2><script>alert(2)</script>' });
    const html = buildPrintableHtml({ studentName: '"><b>x</b>', state: renamed, date: new Date() });
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>x');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(escapeHtml(`a&b<'">`)).toBe('a&amp;b&lt;&#39;&quot;&gt;');
  });
});

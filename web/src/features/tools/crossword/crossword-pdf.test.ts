// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { inspectPdf } from '@/testing/pdf-inspect';
import { buildCrosswordPdf, clueLines, crosswordFileName } from './crossword-pdf';
import { layoutCrossword } from './crossword-layout';

const createdAt = new Date('2025-03-01T08:00:00Z');
const layout = layoutCrossword({
  across: [
    { clue: 'Un animal que dice miau y duerme mucho durante el día', answer: 'gato' },
    { clue: 'Lugar donde aprendemos', answer: 'escuela' },
  ],
  down: [{ clue: 'Un animal que ladra', answer: 'perro' }],
});

describe('clueLines', () => {
  it('numbers each clue and cuts it at 35 characters plus an ellipsis', () => {
    const across = clueLines(layout, 'across');
    const gato = across.find((l) => l.includes('miau'))!;
    expect(gato).toMatch(/^\d+\. Un animal que dice miau y duerme mu\.\.\.$/);
    expect(clueLines(layout, 'down')).toEqual([expect.stringMatching(/^\d+\. Un animal que ladra$/)]);
  });
});

describe('buildCrosswordPdf', () => {
  it('has an answer key page with the letters and a worksheet page without them', () => {
    const pdf = inspectPdf(buildCrosswordPdf({ title: 'Animales', layout, createdAt }));
    expect(pdf.header).toBe('%PDF-1.3');
    expect(pdf.pageCount).toBe(2);
    const [key, sheet] = pdf.pages;
    expect(key.slice(0, 2)).toEqual(['Animales', 'Answer Key']);
    expect(sheet.slice(0, 2)).toEqual(['Animales', 'Student Worksheet']);
    const letters = layout.grid.flat().filter((l): l is string => l !== null);
    const singleLetters = (page: string[]) => page.filter((t) => /^[A-ZÑ]$/.test(t));
    expect(singleLetters(key).sort()).toEqual(letters.sort());
    expect(singleLetters(sheet)).toEqual([]);
    for (const page of [key, sheet]) {
      expect(page).toContain('Across');
      expect(page).toContain('Down');
      for (const line of [...clueLines(layout, 'across'), ...clueLines(layout, 'down')])
        expect(page).toContain(line);
      for (const word of layout.placed) expect(page).toContain(String(word.number));
    }
    expect(sheet.some((t) => t.startsWith('Name: '))).toBe(true);
  });

  it('gives identical bytes for identical input and date', () => {
    const a = buildCrosswordPdf({ title: 'T', layout, createdAt });
    const b = buildCrosswordPdf({ title: 'T', layout, createdAt });
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it('names the file after the title', () => {
    expect(crosswordFileName('My Crossword Puzzle')).toBe('my_crossword_puzzle_crossword.pdf');
  });
});

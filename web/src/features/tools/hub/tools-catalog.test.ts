import { describe, expect, it } from 'vitest';
import { makeUser } from '@/testing/fixtures';
import { TOOLS, visibleTools } from './tools-catalog';

const titles = (list: { title: string }[]) => list.map((t) => t.title);

describe('tools catalog', () => {
  it('has the twelve tool routes of the spec', () => {
    expect(TOOLS.map((t) => t.route)).toEqual([
      '/audio-quizzes',
      '/text-quizzes',
      '/bingo-generator',
      '/word-bingo',
      '/spanish-alphabet',
      '/code-evolution',
      '/word-sorter',
      '/listen-to-type',
      '/crossword-generator',
      '/audio-lists',
      '/lesson-plans',
      '/google-slides',
    ]);
  });

  it('shows teachers and admins all 12', () => {
    expect(visibleTools(makeUser({ role: 'teacher' }))).toHaveLength(12);
    expect(visibleTools(makeUser({ role: 'student', isAdmin: true }))).toHaveLength(12);
  });

  it('shows students only Audio Quizzes, Text Quizzes, Spanish Alphabet, Audio Lists and Google Slides', () => {
    expect(titles(visibleTools(makeUser({ role: 'student' })))).toEqual([
      'Audio Quizzes',
      'Text Quizzes',
      'Spanish Alphabet',
      'Audio Lists',
      'Google Slides',
    ]);
  });

  it('shows visitors only the tools whose routes need no sign-in', () => {
    expect(visibleTools(null).map((t) => t.route)).toEqual([
      '/bingo-generator',
      '/word-bingo',
      '/spanish-alphabet',
      '/code-evolution',
      '/word-sorter',
      '/crossword-generator',
    ]);
  });
});

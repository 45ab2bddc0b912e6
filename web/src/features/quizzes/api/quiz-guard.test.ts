import { describe, expect, it } from 'vitest';
import { quizListSchema, type AuthoredQuiz, type ListedQuizForTaking } from '@district/contracts/assessment';
import { variants } from '@/testing/guard-variants';
import { parseListedQuiz, parseQuizList } from './quiz-guard';

const teacherQuiz: AuthoredQuiz = {
  id: '00000000-0000-4000-8000-0000000d0001',
  kind: 'audio',
  title: 'Los números',
  description: 'Listen and pick',
  maxAttempts: 3,
  audioPlayLimit: 2,
  revealAnswers: 'afterLastAttempt',
  createdById: '00000000-0000-4000-8000-0000000a0002',
  canEdit: false,
  attemptsUsed: 2,
  attemptsAllowed: 3,
  createdByName: 'Ms. Teacher',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
  version: 2,
  classIds: ['00000000-0000-4000-8000-0000000c0001'],
  questions: [
    {
      question: '¿Cuántos?',
      options: ['uno', 'dos', 'tres', 'cuatro'],
      correctAnswer: 1,
      audioUrl: '/sounds/dos.mp3',
    },
    { question: 'Rojo', options: ['red', 'blue', 'green', 'pink'], correctAnswer: 0 },
  ],
};
const { createdById: _c, canEdit: _e, classIds: _k, questions: _q, ...studentBase } = teacherQuiz;
const studentQuiz: ListedQuizForTaking = {
  ...studentBase,
  kind: 'text',
  audioPlayLimit: null,
  questions: [{ question: 'Rojo', options: ['red', 'blue', 'green', 'pink'] }],
};

/** zod's answer for one item: what quizListSchema makes of a one-item list. */
function zodItem(candidate: unknown): unknown {
  const result = quizListSchema.safeParse([candidate]);
  return result.success ? result.data[0] : undefined;
}

describe('the zod-free quiz list guard agrees with quizListSchema (ADR 0024)', () => {
  it('accepts exactly the items the schema accepts, as the same AuthoredQuiz or ListedQuizForTaking', () => {
    const candidates: unknown[] = [];
    for (const quiz of [teacherQuiz, studentQuiz]) {
      candidates.push(...variants(quiz as unknown as Record<string, unknown>));
      for (const question of variants(quiz.questions[0] as unknown as Record<string, unknown>))
        candidates.push({ ...quiz, questions: [question, ...quiz.questions.slice(1)] });
    }
    // A teacher's quiz without createdById is read as one for taking: the answer key is dropped, as the union does.
    candidates.push(
      { ...teacherQuiz, createdById: undefined },
      { ...teacherQuiz, version: 2 ** 53 },
      { ...teacherQuiz, questions: [] },
    );
    for (const candidate of candidates) {
      expect([candidate, parseListedQuiz(candidate)]).toEqual([candidate, zodItem(candidate)]);
    }
    const { createdById: _drop, ...withoutCreator } = teacherQuiz;
    expect(parseListedQuiz(withoutCreator)?.questions[0]).not.toHaveProperty('correctAnswer');
    expect(
      parseListedQuiz({ ...teacherQuiz, questions: [{ ...teacherQuiz.questions[1], extra: 1 }] })
        ?.questions[0],
    ).toEqual(teacherQuiz.questions[1]);
  });

  it('parses a list only when every item is a quiz', () => {
    expect(parseQuizList([teacherQuiz, studentQuiz])).toEqual(
      quizListSchema.parse([teacherQuiz, studentQuiz]),
    );
    expect(parseQuizList([teacherQuiz, { ...studentQuiz, kind: 'video' }])).toBeUndefined();
    expect(parseQuizList({ 0: teacherQuiz })).toBeUndefined();
    expect(parseQuizList([])).toEqual([]);
  });
});

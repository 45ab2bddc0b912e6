import fc from 'fast-check';
import { REVEAL_ANSWERS_OPTIONS, type RevealAnswers } from '@district/contracts';
import { answerKeyFor, deletedQuizState, reviewOf, reviewState, type StoredGrade } from './review';

const stored = (overrides: Partial<StoredGrade> = {}): StoredGrade => ({
  id: '00000000-0000-4000-8000-000000000001',
  kind: 'text',
  quizId: '00000000-0000-4000-8000-000000000002',
  userId: '00000000-0000-4000-8000-000000000003',
  userName: 'Pat',
  quizTitle: 'Colores',
  score: 50,
  correctAnswers: 1,
  totalQuestions: 2,
  passed: false,
  userAnswers: [0, 3],
  questions: [
    { question: 'rojo', options: ['red', 'blue', 'green', 'black'], correctAnswer: 0 },
    { question: 'azul', options: ['red', 'blue', 'green', 'black'], correctAnswer: 1 },
  ],
  quizVersion: 1,
  createdAt: '2026-12-07T10:00:00.000Z',
  completedAt: '2026-12-07T10:00:00.000Z',
  revealAnswers: null,
  ...overrides,
});

describe('answerKeyFor', () => {
  it.each<[RevealAnswers, boolean, string]>([
    ['always', false, 'shown'],
    ['always', true, 'shown'],
    ['afterLastAttempt', false, 'afterLastAttempt'],
    ['afterLastAttempt', true, 'shown'],
    ['never', false, 'never'],
    ['never', true, 'never'],
  ])('a student, %s, no attempt left: %s → %s', (revealAnswers, noAttemptLeft, expected) => {
    expect(answerKeyFor(false, { revealAnswers, noAttemptLeft })).toBe(expected);
  });

  it('shows teachers and admins the key whatever the setting', () => {
    for (const revealAnswers of REVEAL_ANSWERS_OPTIONS)
      expect(answerKeyFor(true, { revealAnswers, noAttemptLeft: false })).toBe('shown');
  });
});

describe('reviewState', () => {
  it('has no attempt left exactly when the limit with the extra attempts is reached (-1 never)', () => {
    expect(reviewState({ revealAnswers: 'never', maxAttempts: 3 }, 2, 0).noAttemptLeft).toBe(false);
    expect(reviewState({ revealAnswers: 'never', maxAttempts: 3 }, 3, 0).noAttemptLeft).toBe(true);
    expect(reviewState({ revealAnswers: 'never', maxAttempts: 3 }, 3, 1).noAttemptLeft).toBe(false);
    expect(reviewState({ revealAnswers: 'never', maxAttempts: -1 }, 99, 0).noAttemptLeft).toBe(false);
  });

  it('treats a deleted quiz as taken for good, with the setting its results kept (none: always)', () => {
    expect(deletedQuizState(stored())).toEqual({ revealAnswers: 'always', noAttemptLeft: true });
    expect(deletedQuizState(stored({ revealAnswers: 'never' }))).toEqual({
      revealAnswers: 'never',
      noAttemptLeft: true,
    });
  });
});

describe('reviewOf', () => {
  it('keeps the key when shown, and always says which answers were right', () => {
    const view = reviewOf(stored(), 'shown');
    expect(view.questions.map((q) => q.correctAnswer)).toEqual([0, 1]);
    expect(view.answersCorrect).toEqual([true, false]);
    expect(view).not.toHaveProperty('revealAnswers');
  });

  it('never lets a withheld key out, whatever the questions and answers (property)', () => {
    const question = fc.record({
      question: fc.string(),
      options: fc.array(fc.string(), { minLength: 4, maxLength: 4 }),
      correctAnswer: fc.integer({ min: 0, max: 3 }),
    });
    fc.assert(
      fc.property(
        fc.array(question, { minLength: 1, maxLength: 20 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 20 }),
        fc.constantFrom('afterLastAttempt' as const, 'never' as const),
        (questions, userAnswers, answerKey) => {
          const view = reviewOf(stored({ questions, userAnswers }), answerKey);
          expect(JSON.stringify(view)).not.toMatch(/"correctAnswer":/);
          expect(view.answerKey).toBe(answerKey);
          expect(view.answersCorrect).toEqual(questions.map((q, i) => userAnswers[i] === q.correctAnswer));
        },
      ),
    );
  });
});

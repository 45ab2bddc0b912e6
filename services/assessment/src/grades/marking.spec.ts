import fc from 'fast-check';
import { attemptsAllowed, mayAttempt } from '../quizzes/attempt-rules';
import { mark } from './marking';

const questions = fc.array(fc.record({ correctAnswer: fc.integer({ min: 0, max: 3 }) }), {
  minLength: 1,
  maxLength: 100,
});

describe('mark', () => {
  it('scores round(correct / total × 100), passing at 70', () => {
    expect(mark([{ correctAnswer: 0 }, { correctAnswer: 1 }, { correctAnswer: 2 }], [0, 1, 3])).toEqual({
      correctAnswers: 2,
      totalQuestions: 3,
      score: 67,
      passed: false,
    });
    const ten = Array.from({ length: 10 }, () => ({ correctAnswer: 0 }));
    expect(mark(ten, [0, 0, 0, 0, 0, 0, 0, 1, 1, 1])).toMatchObject({ score: 70, passed: true });
    expect(mark(ten, [0, 0, 0, 0, 0, 0, 1, 1, 1, 1])).toMatchObject({ score: 60, passed: false });
  });

  it('counts exactly the answers equal to the key, whatever the answers', () => {
    fc.assert(
      fc.property(questions, fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 100 }), (qs, answers) => {
        const m = mark(qs, answers);
        const expected = qs.filter((q, i) => answers[i] === q.correctAnswer).length;
        expect(m.correctAnswers).toBe(expected);
        expect(m.totalQuestions).toBe(qs.length);
        expect(m.score).toBe(Math.round((expected / qs.length) * 100));
        expect(m.score).toBeGreaterThanOrEqual(0);
        expect(m.score).toBeLessThanOrEqual(100);
        expect(m.passed).toBe(m.score >= 70);
      }),
    );
  });

  it('gives 100 to the key itself and 0 to answers that all differ from it', () => {
    fc.assert(
      fc.property(questions, (qs) => {
        expect(
          mark(
            qs,
            qs.map((q) => q.correctAnswer),
          ).score,
        ).toBe(100);
        expect(
          mark(
            qs,
            qs.map((q) => (q.correctAnswer + 1) % 4),
          ).score,
        ).toBe(0);
      }),
    );
  });
});

describe('the attempt limit', () => {
  it('allows exactly the limit plus extra attempts, and any number when unlimited', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(1, 2, 3, 5, 10),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 0, max: 50 }),
        (max, extra, taken) => {
          const allowed = attemptsAllowed(max, extra);
          expect(allowed).toBe(max + extra);
          expect(mayAttempt(taken, allowed)).toBe(taken < max + extra);
          expect(mayAttempt(taken, attemptsAllowed(-1, extra))).toBe(true);
        },
      ),
    );
  });
});

import fc from 'fast-check';
import type { QuizQuestion } from '@district/contracts';
import { analyseItems } from './item-analysis';

const q = (correctAnswer: number): QuizQuestion => ({
  question: `q${correctAnswer}`,
  options: ['a', 'b', 'c', 'd'],
  correctAnswer,
});

describe('item analysis', () => {
  it('reads facility, discrimination and option counts off a small class', () => {
    // Ten results; question 1 is answered right by the strongest three only, question 2 by everyone.
    const results = Array.from({ length: 10 }, (_, i) => ({
      score: 100 - i * 10,
      userAnswers: [i < 3 ? 0 : 1, 2],
    }));
    const [first, second] = analyseItems([q(0), q(2)], results);
    expect(first).toEqual({
      question: 'q0',
      correctAnswer: 0,
      facility: 0.3,
      discrimination: 1,
      optionCounts: [3, 7, 0, 0],
    });
    expect(second).toMatchObject({ facility: 1, discrimination: 0, optionCounts: [0, 0, 10, 0] });
  });

  it('says nothing it cannot know: no results, or one', () => {
    expect(analyseItems([q(1)], [])[0]).toMatchObject({
      facility: null,
      discrimination: null,
      optionCounts: [0, 0, 0, 0],
    });
    expect(analyseItems([q(1)], [{ score: 100, userAnswers: [1] }])[0]).toMatchObject({
      facility: 1,
      discrimination: null,
    });
  });

  it('keeps every figure in range and counts every answer once', () => {
    const quiz = fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 10 });
    fc.assert(
      fc.property(
        quiz.chain((keys) =>
          fc.tuple(
            fc.constant(keys),
            fc.array(
              fc.record({
                score: fc.integer({ min: 0, max: 100 }),
                userAnswers: fc.array(fc.integer({ min: 0, max: 3 }), {
                  minLength: keys.length,
                  maxLength: keys.length,
                }),
              }),
              { maxLength: 60 },
            ),
          ),
        ),
        ([keys, results]) => {
          const analysis = analyseItems(keys.map(q), results);
          for (const [i, item] of analysis.entries()) {
            expect(item.optionCounts.reduce((a, b) => a + b, 0)).toBe(results.length);
            if (results.length > 0) {
              expect(item.facility).toBeCloseTo(item.optionCounts[keys[i]] / results.length, 3);
              expect(item.facility as number).toBeGreaterThanOrEqual(0);
              expect(item.facility as number).toBeLessThanOrEqual(1);
            }
            if (results.length >= 2) {
              expect(item.discrimination as number).toBeGreaterThanOrEqual(-1);
              expect(item.discrimination as number).toBeLessThanOrEqual(1);
            }
          }
        },
      ),
    );
  });
});

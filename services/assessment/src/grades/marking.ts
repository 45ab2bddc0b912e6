import { PASS_MARK, type QuizQuestion } from '@district/contracts';

export interface Marked {
  correctAnswers: number;
  totalQuestions: number;
  /** round(correct / total × 100) (spec §5). */
  score: number;
  /** score ≥ 70 (spec §9). */
  passed: boolean;
}

/** Marks answers against the stored key: one answer per question, each an option index. */
export function mark(
  questions: readonly Pick<QuizQuestion, 'correctAnswer'>[],
  userAnswers: readonly number[],
): Marked {
  const totalQuestions = questions.length;
  const correctAnswers = questions.reduce((n, q, i) => n + (userAnswers[i] === q.correctAnswer ? 1 : 0), 0);
  const score = totalQuestions === 0 ? 0 : Math.round((correctAnswers / totalQuestions) * 100);
  return { correctAnswers, totalQuestions, score, passed: score >= PASS_MARK };
}

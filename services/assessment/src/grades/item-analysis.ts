import { QUIZ_OPTIONS_COUNT, type ItemAnalysis, type QuizQuestion } from '@district/contracts';

/** The share of each extreme group in classical item analysis (Kelley's 27 %). */
export const EXTREME_GROUP_SHARE = 0.27;

export interface AnalysedResult {
  score: number;
  userAnswers: readonly number[];
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/**
 * Classical item analysis of `results` (all answered on `questions`): facility = share correct; discrimination =
 * share correct in the top 27 % by score minus the share in the bottom 27 % (at least one result each, ties broken
 * by order); option counts per question. Figures are rounded to 3 decimals.
 */
export function analyseItems(
  questions: readonly QuizQuestion[],
  results: readonly AnalysedResult[],
): ItemAnalysis['questions'] {
  const n = results.length;
  const ranked = [...results].sort((a, b) => b.score - a.score);
  const k = Math.max(1, Math.round(n * EXTREME_GROUP_SHARE));
  const upper = ranked.slice(0, k);
  const lower = ranked.slice(n - k);
  const share = (group: readonly AnalysedResult[], i: number, key: number) =>
    group.filter((r) => r.userAnswers[i] === key).length / group.length;
  return questions.map((q, i) => {
    const optionCounts = Array.from(
      { length: QUIZ_OPTIONS_COUNT },
      (_, o) => results.filter((r) => r.userAnswers[i] === o).length,
    );
    return {
      question: q.question,
      correctAnswer: q.correctAnswer,
      facility: n === 0 ? null : round3(optionCounts[q.correctAnswer] / n),
      discrimination:
        n < 2 ? null : round3(share(upper, i, q.correctAnswer) - share(lower, i, q.correctAnswer)),
      optionCounts,
    };
  });
}

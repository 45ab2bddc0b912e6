import type { Grade, QuizQuestion, RevealAnswers } from '@district/contracts';
import { attemptsAllowed, mayAttempt } from '../quizzes/attempt-rules';

/** A result as stored: the questions with their key, and the review setting its deleted quiz left on it. */
export type StoredGrade = Omit<Grade, 'questions' | 'answersCorrect' | 'answerKey'> & {
  questions: QuizQuestion[];
  /** The quiz's `revealAnswers`, copied when the quiz was deleted; null while it exists (its row decides). */
  revealAnswers: RevealAnswers | null;
};

/** What decides a student's review of a result: the quiz's setting and whether they can still take it. */
export interface ReviewState {
  revealAnswers: RevealAnswers;
  /** No attempt left: the limit reached, or the quiz deleted. */
  noAttemptLeft: boolean;
}

/** The state of a quiz that still exists, for a student with `taken` results and `extra` attempts on it. */
export function reviewState(
  quiz: { revealAnswers: RevealAnswers; maxAttempts: number },
  taken: number,
  extra: number,
): ReviewState {
  return {
    revealAnswers: quiz.revealAnswers,
    noAttemptLeft: !mayAttempt(taken, attemptsAllowed(quiz.maxAttempts, extra)),
  };
}

/** A result of a deleted quiz: no attempt can be left; the setting it kept (none: today's 'always'). */
export function deletedQuizState(grade: StoredGrade): ReviewState {
  return { revealAnswers: grade.revealAnswers ?? 'always', noAttemptLeft: true };
}

/**
 * Whether a student's review shows the key (issue #34, ADR 0033): 'always' does (the spec's review);
 * 'afterLastAttempt' once no attempt is left; 'never' does not. Teachers and admins always see it.
 */
export function answerKeyFor(staff: boolean, state: ReviewState): Grade['answerKey'] {
  if (staff || state.revealAnswers === 'always') return 'shown';
  if (state.revealAnswers === 'afterLastAttempt' && state.noAttemptLeft) return 'shown';
  return state.revealAnswers;
}

/**
 * The result as its reader may see it: per question whether the answer given was right, and the key only when
 * shown — withheld, no `correctAnswer` leaves the server.
 */
export function reviewOf(stored: StoredGrade, answerKey: Grade['answerKey']): Grade {
  const { revealAnswers: _kept, questions, ...rest } = stored;
  const answersCorrect = questions.map((q, i) => stored.userAnswers[i] === q.correctAnswer);
  return {
    ...rest,
    questions: answerKey === 'shown' ? questions : questions.map(({ correctAnswer: _key, ...q }) => q),
    answersCorrect,
    answerKey,
  };
}

import { holdsRight, type AuthUser } from '@district/nest-common';
import type { AuthoredQuiz, ListedQuizForTaking, Quiz, QuizForTaking } from '@district/contracts';
import { attemptsAllowed } from './attempt-rules';
import type { QuizWithAttempts } from './quizzes.repository';

type Caller = Pick<AuthUser, 'id' | 'role' | 'approved' | 'isAdmin'>;

/** Teachers and administrators (approved: ADR 0011) write quizzes, see answer keys and every result. */
export function isStaff(user: Omit<Caller, 'id'>): boolean {
  return holdsRight(user, 'teacher') || holdsRight(user, 'admin');
}

/**
 * Who may change a quiz, its accommodations and its results (issue #34, ADR 0033), decided from the stored owner:
 * an administrator, or the teacher who created it while they hold a teacher's rights. An ownerless quiz (its
 * author's account deleted) is the administrators' alone.
 */
export function canChange(user: Caller, ownerId: string | null): boolean {
  if (holdsRight(user, 'admin')) return true;
  return isStaff(user) && ownerId !== null && ownerId === user.id.toLowerCase();
}

/** A quiz without its answer key (and without who wrote it): what a student takes. */
export function forTaking(quiz: Quiz): QuizForTaking {
  const { questions, createdById: _author, ...rest } = quiz;
  return { ...rest, questions: questions.map(({ correctAnswer: _key, ...q }) => q) };
}

/**
 * The view of a listed quiz the caller may see, with their own attempts on it (issue #34: the card's "2 of 3
 * attempts used"): staff get the key and whether they may change it; anyone else the quiz without its key.
 */
export function viewFor(
  user: AuthUser,
  { quiz, taken, extra }: QuizWithAttempts,
): AuthoredQuiz | ListedQuizForTaking {
  const attempts = { attemptsUsed: taken, attemptsAllowed: attemptsAllowed(quiz.maxAttempts, extra) };
  return isStaff(user)
    ? { ...quiz, canEdit: canChange(user, quiz.createdById), ...attempts }
    : { ...forTaking(quiz), ...attempts };
}

import { holdsRight, type AuthUser } from '@district/nest-common';
import type { Quiz, QuizForTaking } from '@district/contracts';

/** Teachers and administrators (approved: ADR 0011) write quizzes, see answer keys and every result. */
export function isStaff(user: Pick<AuthUser, 'role' | 'approved' | 'isAdmin'>): boolean {
  return holdsRight(user, 'teacher') || holdsRight(user, 'admin');
}

/** A quiz without its answer key (and without who wrote it): what a student lists and takes. */
export function forTaking(quiz: Quiz): QuizForTaking {
  const { questions, createdById: _author, ...rest } = quiz;
  return { ...rest, questions: questions.map(({ correctAnswer: _key, ...q }) => q) };
}

/** The view of a quiz the caller may see. */
export function viewFor(user: AuthUser, quiz: Quiz): Quiz | QuizForTaking {
  return isStaff(user) ? quiz : forTaking(quiz);
}

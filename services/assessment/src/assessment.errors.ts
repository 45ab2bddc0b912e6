import { AssessmentMessages as M } from '@district/contracts';

/**
 * Expected failures of assessment's use cases. Services throw these; assessment-errors.interceptor.ts maps them
 * to HTTP, so the domain code never speaks HTTP.
 */
export abstract class AssessmentError extends Error {}

export class QuizNotFoundError extends AssessmentError {
  constructor() {
    super(M.quizNotFound);
  }
}

export class GradeNotFoundError extends AssessmentError {
  constructor() {
    super(M.gradeNotFound);
  }
}

/** The spec's 'Attempt Limit Reached' with the counts. */
export class AttemptLimitError extends AssessmentError {
  constructor(
    readonly taken: number,
    readonly maxAttempts: number,
  ) {
    super(M.attemptLimit(taken, maxAttempts));
  }
}

/** A submission whose answers do not fit the quiz it names. */
export class AnswersInvalidError extends AssessmentError {}

/** A quiz edited again and again while one submission was being stored (it is retried a few times first). */
export class QuizChangingError extends AssessmentError {
  constructor() {
    super(M.quizChanging);
  }
}

/** A teacher changing a quiz (or its accommodations) they did not create (ADR 0033). */
export class QuizOwnerError extends AssessmentError {
  constructor() {
    super(M.quizOwnerOnly);
  }
}

/** A teacher deleting a result of a quiz they did not create, or of a deleted quiz (administrators only). */
export class GradeOwnerError extends AssessmentError {
  constructor() {
    super(M.gradeOwnerOnly);
  }
}

/** Assigning a quiz to a class the author neither teaches nor administers, or that is not an active class (ADR 0042). */
export class ClassNotYoursError extends AssessmentError {
  constructor() {
    super(M.classNotYours);
  }
}

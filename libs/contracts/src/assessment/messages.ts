/** Limits the spec leaves open ("not shown"); the messages below word them. */
export const PASS_MARK = 70;
/** maxAttempts choices (spec §9); -1 = unlimited; default 1. */
export const MAX_ATTEMPTS_OPTIONS = [1, 2, 3, 5, 10, -1] as const;
export const UNLIMITED_ATTEMPTS = -1;
export const DEFAULT_MAX_ATTEMPTS = 1;
export const QUIZ_OPTIONS_COUNT = 4;
export const QUIZ_QUESTIONS_MAX = 100;
/** Classes one quiz can be assigned to (ADR 0042). */
export const QUIZ_CLASSES_MAX = 50;
export const QUIZ_TITLE_MAX = 200;
export const QUIZ_DESCRIPTION_MAX = 2000;
export const QUIZ_QUESTION_MAX = 1000;
export const QUIZ_OPTION_MAX = 500;
export const QUIZ_AUDIO_URL_MAX = 2048;
/** A teacher's extra attempts for one student on one quiz. */
export const EXTRA_ATTEMPTS_MAX = 20;
/** Plays of one question's audio in an attempt (optional per quiz). */
export const AUDIO_PLAY_LIMIT_MAX = 10;
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/**
 * When a student's review of a result shows the answer key (issue #34): always (the spec's review, the default),
 * once the student has no attempt left on the quiz, or never. The server decides what it sends.
 */
export const REVEAL_ANSWERS_OPTIONS = ['always', 'afterLastAttempt', 'never'] as const;
export const DEFAULT_REVEAL_ANSWERS = 'always';

/** Texts of the spec (classroom-tools §5, §6, §8), shared by the assessment service and the web. */
export const AssessmentMessages = {
  gradesLoginRequired: 'Please log in to view quiz grades.',
  quizzesLoginRequired: 'Please log in to view quizzes.',
  staffOnly: 'Access denied. Admin or teacher privileges required.',
  dashboardAccessDenied: 'Access Denied: You need admin or teacher privileges to view quiz grades.',
  attemptLimitTitle: 'Attempt Limit Reached',
  attemptLimit: (taken: number, max: number) =>
    `You have already taken this quiz ${taken} time(s). Maximum attempts allowed: ${max}.`,
  titleRequired: 'Quiz title is required.',
  questionRequired: 'At least one question is required.',
  deleteGradeConfirm: 'Are you sure you want to delete this quiz result?',
  gradeDeleted: 'Success: Quiz result deleted successfully.',
  fetchGradesFailed: 'Failed to fetch grades',
  fetchQuizzesFailed: 'Failed to fetch quizzes',
  passed: 'Passed',
  // Server answers the spec does not word, in its tone.
  quizNotFound: 'Quiz not found',
  gradeNotFound: 'Quiz result not found',
  quizBodyNotObject: 'Send the quiz as a JSON object',
  titleTooLong: `Quiz title must be at most ${QUIZ_TITLE_MAX} characters`,
  descriptionTooLong: `Description must be at most ${QUIZ_DESCRIPTION_MAX} characters`,
  tooManyQuestions: `A quiz can have at most ${QUIZ_QUESTIONS_MAX} questions`,
  questionTextRequired: (n: number) => `Question ${n} needs its question text.`,
  questionTooLong: (n: number) => `Question ${n} must be at most ${QUIZ_QUESTION_MAX} characters`,
  fourOptions: (n: number) => `Question ${n} needs exactly ${QUIZ_OPTIONS_COUNT} non-empty options.`,
  optionTooLong: (n: number) => `Question ${n}: options must be at most ${QUIZ_OPTION_MAX} characters`,
  correctAnswerRange: (n: number) =>
    `Question ${n}: the correct answer must be option 1 to ${QUIZ_OPTIONS_COUNT}.`,
  audioUrlRequired: (n: number) => `Question ${n} needs an audio URL (http or https).`,
  maxAttemptsInvalid: `maxAttempts must be one of ${MAX_ATTEMPTS_OPTIONS.join(', ')}`,
  playLimitInvalid: `The audio play limit must be 1 to ${AUDIO_PLAY_LIMIT_MAX}, or none`,
  answersRequired: 'Answer every question before submitting.',
  answersWrongCount: (n: number) => `Send one answer per question (${n}).`,
  quizChanging: 'The quiz is being changed right now. Please submit your answers again in a moment.',
  quizIdRequired: 'quizId must be a quiz id',
  idempotencyKeyInvalid: 'The Idempotency-Key header must be a UUID',
  userIdInvalid: 'userId must be a user id',
  classIdInvalid: 'classIds must be class ids',
  tooManyClasses: `A quiz can be assigned to at most ${QUIZ_CLASSES_MAX} classes`,
  /** Assigning a quiz to a class the author neither teaches nor administers (ADR 0042). */
  classNotYours: 'You can assign a quiz only to classes you teach or administer.',
  extraAttemptsInvalid: `Extra attempts must be 0 to ${EXTRA_ATTEMPTS_MAX}`,
  revealAnswersInvalid: `revealAnswers must be one of ${REVEAL_ANSWERS_OPTIONS.join(', ')}`,
  /** A teacher acting on another teacher's quiz (issue #34; the spec words no ownership rule). */
  quizOwnerOnly: 'Only the teacher who created this quiz or an administrator can change it.',
  gradeOwnerOnly: 'Only the teacher who created this quiz or an administrator can delete its results.',
  /** The author name a quiz keeps once its author's account is deleted (as the classroom's items, ADR 0020). */
  formerStaffMember: 'Former staff member',
} as const;

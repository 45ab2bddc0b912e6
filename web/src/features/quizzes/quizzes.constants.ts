import {
  AssessmentMessages,
  PASS_MARK,
  UNLIMITED_ATTEMPTS,
  type QuizKind,
  type RevealAnswers,
} from '@district/contracts/assessment';

/** A submission that failed on the network is retried once by itself after this delay (same Idempotency-Key). */
export const SUBMIT_RETRY_DELAY_MS = 1_000;

export interface QuizKindInfo {
  kind: QuizKind;
  title: string;
  description: string;
  quizzesPath: string;
  gradesPath: string;
}

export const QUIZ_KINDS: Record<QuizKind, QuizKindInfo> = {
  audio: {
    kind: 'audio',
    title: 'Audio Quizzes',
    description: 'Listen to each recording and choose the right answer.',
    quizzesPath: '/api/audio-quizzes',
    gradesPath: '/api/quiz-grades',
  },
  text: {
    kind: 'text',
    title: 'Text Quizzes',
    description: 'Read each question and choose the right answer.',
    quizzesPath: '/api/text-quizzes',
    gradesPath: '/api/text-quiz-grades',
  },
};

/** Texts of the spec (classroom-tools §4, §5, §8) not already in `AssessmentMessages`. */
export const QuizMessages = {
  ...AssessmentMessages,
  saveFailed: (message: string) => `Error creating/updating quiz: ${message}`,
  deleteFailed: (message: string) => `Failed to delete quiz: ${message}`,
  unknownError: 'Unknown error',
  // The spec names these states and asks for confirmations without wording them.
  deleteConfirm: (title: string) =>
    `Are you sure you want to delete the quiz "${title}"? Results already recorded are kept.`,
  quizCreated: 'Quiz created successfully',
  quizUpdated: 'Quiz updated successfully',
  quizDeleted: 'Quiz deleted successfully',
  loginToView: 'Log in to see and take the quizzes.',
  noQuizzes: 'No quizzes yet.',
  noQuizzesStaff: 'No quizzes yet. Create the first one for your class.',
  submitNetworkFailed: 'Your answers could not be sent. Check your connection and press Submit again.',
  submitFailed: 'Your answers could not be submitted',
  startFailed: 'The quiz could not be started',
  warningResult: `Below the pass mark of ${PASS_MARK}%. Review the questions and try again if attempts remain.`,
} as const;

export const attemptsLabel = (maxAttempts: number) =>
  maxAttempts === UNLIMITED_ATTEMPTS
    ? 'Unlimited'
    : `${maxAttempts} ${maxAttempts === 1 ? 'attempt' : 'attempts'}`;

/** The card's count of the caller's attempts (issue #34): "2 of 3 attempts used"; unlimited: "2 attempts used". */
export function attemptsUsedLabel(used: number, allowed: number): string {
  if (allowed === UNLIMITED_ATTEMPTS) return `${used} ${used === 1 ? 'attempt' : 'attempts'} used`;
  return `${used} of ${allowed} ${allowed === 1 ? 'attempt' : 'attempts'} used`;
}

/** The quiz form's review setting (ADR 0033): what each choice means to a student. */
export const REVEAL_ANSWERS_LABELS: Record<RevealAnswers, string> = {
  always: 'After every attempt',
  afterLastAttempt: 'After the last attempt',
  never: 'Never',
};
export const REVEAL_ANSWERS_HINT =
  'When students see the correct answers in their review. Before then they see their own answers and which were right.';

import { AssessmentMessages, type QuizKind } from '@district/contracts/assessment';

export interface GradeKindInfo {
  kind: QuizKind;
  /** The dashboard's heading (spec §2). */
  heading: string;
  route: string;
  /** The 'Filter by Quiz' option that shows every quiz. */
  allQuizzes: string;
  empty: string;
  /** The profile's tab label before its count, and its empty state. */
  tabLabel: string;
  profileEmpty: string;
  gradesPath: string;
  quizzesPath: string;
  csvName: string;
}

export const GRADE_KINDS: Record<QuizKind, GradeKindInfo> = {
  audio: {
    kind: 'audio',
    heading: 'Quiz Grades Dashboard',
    route: '/admin/quiz-grades-dashboard',
    allQuizzes: 'All Quizzes',
    empty: 'No quiz results found.',
    tabLabel: 'Audio Quizzes',
    profileEmpty: "You haven't taken any audio quizzes yet.",
    gradesPath: '/api/quiz-grades',
    quizzesPath: '/api/audio-quizzes',
    csvName: 'quiz-grades',
  },
  text: {
    kind: 'text',
    heading: 'Text Quiz Grades Dashboard',
    route: '/admin/text-quiz-grades-dashboard',
    allQuizzes: 'All Text Quizzes',
    empty: 'No text quiz results found.',
    tabLabel: 'Text Quizzes',
    profileEmpty: "You haven't taken any text quizzes yet.",
    gradesPath: '/api/text-quiz-grades',
    quizzesPath: '/api/text-quizzes',
    csvName: 'text-quiz-grades',
  },
};

/** Item analysis flags (the spec has none; common classroom rules of thumb). */
export const HARD_FACILITY_BELOW = 0.3;

/** Texts of the spec (classroom-tools §2, §8) not already in `AssessmentMessages`, and the extras' own. */
export const GradeMessages = {
  ...AssessmentMessages,
  loading: 'Loading quiz grades...',
  fetchNetworkFailed: 'Error fetching quiz grades. Please try again.',
  deleteFailed: (message: string) => `Error: Failed to delete quiz result: ${message}`,
  deleteNetworkFailed: 'Error deleting quiz result. Please try again.',
  unknownError: 'Unknown error',
  // Not worded by the spec.
  analysisFailed: 'The item analysis could not be loaded',
  accommodationSaved: (extra: number, name: string) =>
    extra === 0
      ? `Extra attempts removed for ${name}.`
      : `${name} now has ${extra} extra ${extra === 1 ? 'attempt' : 'attempts'} on this quiz.`,
  accommodationFailed: (message: string) => `Error: Failed to save extra attempts: ${message}`,
  accommodationNetworkFailed: 'Error saving extra attempts. Please try again.',
} as const;

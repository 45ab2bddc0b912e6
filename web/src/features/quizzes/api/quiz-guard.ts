import type {
  AuthoredQuiz,
  ListedQuizForTaking,
  QuizKind,
  QuizQuestion,
  RevealAnswers,
  TakingQuestion,
} from '@district/contracts/assessment';
import {
  isBoolean,
  isString,
  isStringArray,
  isUuid,
  matchShape,
  oneOf,
  type FieldChecks,
} from '@/lib/shape-guard';

/** As ./quizzes.ts names it (not imported from there, which imports this file). */
type ListedQuiz = AuthoredQuiz | ListedQuizForTaking;

/**
 * The contract's quizListSchema without zod (src/lib/shape-guard.ts): the quiz list is the quiz screen's first
 * answer, and checking it this way keeps zod and the assessment schemas out of that screen's first paint (ADR
 * 0024). Like the schema's union, an item is an AuthoredQuiz (with the answer key) when it passes as one, else a
 * ListedQuizForTaking; unknown fields are dropped and absent optional ones stay absent, as zod's objects do.
 */

const KINDS: Record<QuizKind, true> = { audio: true, text: true };
const REVEAL: Record<RevealAnswers, true> = { always: true, afterLastAttempt: true, never: true };
/** z.number().int(): an integer in the safe range. */
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
const optional = (check: (v: unknown) => boolean) => (v: unknown) => v === undefined || check(v);

const TAKING_QUESTION_FIELDS: FieldChecks<TakingQuestion> = {
  question: isString,
  options: isStringArray,
  audioUrl: optional(isString),
};
const QUESTION_FIELDS: FieldChecks<QuizQuestion> = { ...TAKING_QUESTION_FIELDS, correctAnswer: isInt };

/** The fields with a value, in the checks' order (an absent optional field stays absent). */
function present<T>(value: T, checks: FieldChecks<T>): T {
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(checks)
      .filter((k) => record[k] !== undefined)
      .map((k) => [k, record[k]]),
  ) as T;
}

function parseQuestions<T>(value: unknown, checks: FieldChecks<T>): T[] | undefined {
  if (!Array.isArray(value)) return undefined;
  if (!value.every((q) => matchShape(q, checks))) return undefined;
  return value.map((q: T) => present(q, checks));
}

const COMMON = {
  id: isUuid,
  kind: oneOf(KINDS),
  title: isString,
  description: isString,
  maxAttempts: isInt,
  audioPlayLimit: (v: unknown) => v === null || isInt(v),
  revealAnswers: oneOf(REVEAL),
  createdByName: isString,
  createdAt: isString,
  updatedAt: isString,
  version: isInt,
  attemptsUsed: isInt,
  attemptsAllowed: isInt,
};
const QUIZ_FIELDS: FieldChecks<AuthoredQuiz> = {
  ...COMMON,
  createdById: (v) => v === null || isUuid(v),
  canEdit: isBoolean,
  classIds: (v) => Array.isArray(v) && v.every(isUuid),
  questions: (v) => parseQuestions(v, QUESTION_FIELDS) !== undefined,
};
const TAKING_FIELDS: FieldChecks<ListedQuizForTaking> = {
  ...COMMON,
  questions: (v) => parseQuestions(v, TAKING_QUESTION_FIELDS) !== undefined,
};

function parseAs<T extends { questions: unknown[] }>(
  value: unknown,
  fields: FieldChecks<T>,
  questionFields: FieldChecks<T['questions'][number]>,
): T | undefined {
  if (!matchShape(value, fields)) return undefined;
  return { ...present(value, fields), questions: parseQuestions(value.questions, questionFields) } as T;
}

/** One listed quiz: an AuthoredQuiz when it passes as one (teachers, admins), else a ListedQuizForTaking, or undefined. */
export function parseListedQuiz(value: unknown): ListedQuiz | undefined {
  return (
    parseAs<AuthoredQuiz>(value, QUIZ_FIELDS, QUESTION_FIELDS) ??
    parseAs<ListedQuizForTaking>(value, TAKING_FIELDS, TAKING_QUESTION_FIELDS)
  );
}

/** quizListSchema without zod: the list, or undefined when any item is not a quiz. */
export function parseQuizList(value: unknown): ListedQuiz[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const list = value.map(parseListedQuiz);
  return list.every((q): q is ListedQuiz => q !== undefined) ? list : undefined;
}

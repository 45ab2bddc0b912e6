import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from '../common/paging';
import { z } from 'zod';
import {
  AUDIO_PLAY_LIMIT_MAX,
  AssessmentMessages as M,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_REVEAL_ANSWERS,
  EXTRA_ATTEMPTS_MAX,
  MAX_ATTEMPTS_OPTIONS,
  QUIZ_AUDIO_URL_MAX,
  QUIZ_CLASSES_MAX,
  QUIZ_DESCRIPTION_MAX,
  QUIZ_OPTION_MAX,
  QUIZ_OPTIONS_COUNT,
  QUIZ_QUESTION_MAX,
  QUIZ_QUESTIONS_MAX,
  QUIZ_TITLE_MAX,
  REVEAL_ANSWERS_OPTIONS,
} from './messages';

const id = z.string().uuid();

/** Audio quizzes (`/api/audio-quizzes`, `/api/quiz-grades`) and text quizzes (`/api/text-quizzes`, `/api/text-quiz-grades`). */
export const quizKindSchema = z.enum(['audio', 'text']);
export type QuizKind = z.infer<typeof quizKindSchema>;

/** When a student's review shows the answer key (`REVEAL_ANSWERS_OPTIONS`). */
export const revealAnswersSchema = z.enum(REVEAL_ANSWERS_OPTIONS);
export type RevealAnswers = z.infer<typeof revealAnswersSchema>;

/** A question with its answer key (spec §3). `audioUrl` on audio quizzes only. */
export const quizQuestionSchema = z.object({
  question: z.string(),
  options: z.array(z.string()),
  correctAnswer: z.number().int(),
  audioUrl: z.string().optional(),
});
export type QuizQuestion = z.infer<typeof quizQuestionSchema>;

/** A question as a student sees it before submitting: no answer key. */
export const takingQuestionSchema = quizQuestionSchema.omit({ correctAnswer: true });
export type TakingQuestion = z.infer<typeof takingQuestionSchema>;

/** A quiz as its authors (teachers, admins) see it (spec §3 plus what the server adds). */
export const quizSchema = z.object({
  id,
  kind: quizKindSchema,
  title: z.string(),
  description: z.string(),
  maxAttempts: z.number().int(),
  /** Plays allowed per question's audio in one attempt; null = no limit (audio quizzes). */
  audioPlayLimit: z.number().int().nullable(),
  revealAnswers: revealAnswersSchema,
  /** Its owner: only they (while staff) and administrators change it; null = administrators only. */
  createdById: id.nullable(),
  createdByName: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Increases with every edit; a grade records the version it answered. */
  version: z.number().int(),
  questions: z.array(quizQuestionSchema),
  /**
   * The classes it is assigned to (ADR 0042): only their students list, open and submit it. Empty: unassigned, as the
   * spec says (every student).
   */
  classIds: z.array(id),
});
export type Quiz = z.infer<typeof quizSchema>;

/** A quiz as a student lists and takes it: the same without the answer key. */
export const quizForTakingSchema = quizSchema
  .omit({ questions: true, createdById: true, classIds: true })
  .extend({
    questions: z.array(takingQuestionSchema),
  });
export type QuizForTaking = z.infer<typeof quizForTakingSchema>;

/** The caller's own attempts on a listed quiz: results stored, and the limit with their extra attempts (-1 unlimited). */
export const quizAttemptsSchema = z.object({
  attemptsUsed: z.number().int(),
  attemptsAllowed: z.number().int(),
});
export type QuizAttempts = z.infer<typeof quizAttemptsSchema>;

/** A quiz as a teacher or admin lists it: with the key, whether they may change it (the server's decision), their attempts. */
export const authoredQuizSchema = quizSchema.extend({ canEdit: z.boolean() }).merge(quizAttemptsSchema);
export type AuthoredQuiz = z.infer<typeof authoredQuizSchema>;
/** A quiz as a student lists it: no key, with their attempts. */
export const listedQuizSchema = quizForTakingSchema.merge(quizAttemptsSchema);
export type ListedQuizForTaking = z.infer<typeof listedQuizSchema>;
/** GET /api/{kind}-quizzes and GET …/{id}. */
export const quizListSchema = z.array(z.union([authoredQuizSchema, listedQuizSchema]));

const http = (value: string) => {
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
};

/** Checks every question, numbering them in the messages as the form does (1-based). */
function questionsSchema(kind: QuizKind) {
  return z
    .array(z.unknown(), { error: M.questionRequired })
    .min(1, M.questionRequired)
    .max(QUIZ_QUESTIONS_MAX, M.tooManyQuestions)
    .superRefine((questions, ctx) => {
      questions.forEach((raw, i) => {
        const n = i + 1;
        const q = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
        const text = typeof q.question === 'string' ? q.question.trim() : '';
        if (text === '')
          ctx.addIssue({ code: 'custom', message: M.questionTextRequired(n), path: [i, 'question'] });
        else if (text.length > QUIZ_QUESTION_MAX)
          ctx.addIssue({ code: 'custom', message: M.questionTooLong(n), path: [i, 'question'] });
        const options = Array.isArray(q.options) ? q.options : [];
        if (
          options.length !== QUIZ_OPTIONS_COUNT ||
          options.some((o) => typeof o !== 'string' || o.trim() === '')
        )
          ctx.addIssue({ code: 'custom', message: M.fourOptions(n), path: [i, 'options'] });
        else if (options.some((o) => (o as string).trim().length > QUIZ_OPTION_MAX))
          ctx.addIssue({ code: 'custom', message: M.optionTooLong(n), path: [i, 'options'] });
        const answer = q.correctAnswer;
        if (
          typeof answer !== 'number' ||
          !Number.isInteger(answer) ||
          answer < 0 ||
          answer >= QUIZ_OPTIONS_COUNT
        )
          ctx.addIssue({ code: 'custom', message: M.correctAnswerRange(n), path: [i, 'correctAnswer'] });
        if (kind === 'audio') {
          const url = typeof q.audioUrl === 'string' ? q.audioUrl.trim() : '';
          if (url === '' || url.length > QUIZ_AUDIO_URL_MAX || !http(url))
            ctx.addIssue({ code: 'custom', message: M.audioUrlRequired(n), path: [i, 'audioUrl'] });
        }
      });
    })
    .transform((questions) =>
      questions.map((raw) => {
        const q = raw as { question: string; options: string[]; correctAnswer: number; audioUrl?: string };
        const out: QuizQuestion = {
          question: q.question.trim(),
          options: q.options.map((o) => o.trim()),
          correctAnswer: q.correctAnswer,
        };
        if (kind === 'audio') out.audioUrl = (q.audioUrl as string).trim();
        return out;
      }),
    );
}

const titleSchema = z
  .string({ error: M.titleRequired })
  .trim()
  .min(1, M.titleRequired)
  .max(QUIZ_TITLE_MAX, M.titleTooLong);
const descriptionSchema = z
  .string({ error: M.descriptionTooLong })
  .trim()
  .max(QUIZ_DESCRIPTION_MAX, M.descriptionTooLong)
  .nullable()
  .transform((v) => v ?? '');
const maxAttemptsSchema = z
  .number({ error: M.maxAttemptsInvalid })
  .int(M.maxAttemptsInvalid)
  .refine((v) => (MAX_ATTEMPTS_OPTIONS as readonly number[]).includes(v), M.maxAttemptsInvalid);
const playLimitSchema = z
  .number({ error: M.playLimitInvalid })
  .int(M.playLimitInvalid)
  .min(1, M.playLimitInvalid)
  .max(AUDIO_PLAY_LIMIT_MAX, M.playLimitInvalid)
  .nullable();

/** POST and PUT of a quiz (spec §7: title, description, maxAttempts, questions): the whole quiz each time. */
export function quizInputSchema(kind: QuizKind) {
  return z.object(
    {
      title: titleSchema,
      description: descriptionSchema.default(''),
      maxAttempts: maxAttemptsSchema.default(DEFAULT_MAX_ATTEMPTS),
      audioPlayLimit:
        kind === 'audio'
          ? playLimitSchema.default(null)
          : z
              .null()
              .optional()
              .transform(() => null),
      revealAnswers: z
        .enum(REVEAL_ANSWERS_OPTIONS, { error: M.revealAnswersInvalid })
        .default(DEFAULT_REVEAL_ANSWERS),
      questions: questionsSchema(kind),
      /** Assign to these classes (the author's own, or their school's for a school administrator); absent on PUT: unchanged. */
      classIds: z
        .array(z.string().uuid(M.classIdInvalid), { error: M.classIdInvalid })
        .max(QUIZ_CLASSES_MAX, M.tooManyClasses)
        .transform((ids) => [...new Set(ids.map((i) => i.toLowerCase()))])
        .optional(),
    },
    { error: M.quizBodyNotObject },
  );
}
export type QuizInput = z.output<ReturnType<typeof quizInputSchema>>;

/**
 * POST of a result. The spec's client also sends quizTitle, score, correctAnswers, totalQuestions (and passed):
 * accepted for compatibility and ignored — the server marks the quiz from its own answer key.
 */
export const gradeSubmissionSchema = z.object(
  {
    quizId: z.string({ error: M.quizIdRequired }).uuid(M.quizIdRequired),
    userAnswers: z.array(
      z
        .number()
        .int()
        .min(0)
        .max(QUIZ_OPTIONS_COUNT - 1),
      { error: M.answersRequired },
    ),
  },
  { error: M.answersRequired },
);
export type GradeSubmission = z.infer<typeof gradeSubmissionSchema>;

/** A question of a result's review: its key only when the server shows it (`Grade.answerKey`). */
export const reviewQuestionSchema = takingQuestionSchema.extend({
  correctAnswer: z.number().int().optional(),
});
export type ReviewQuestion = z.infer<typeof reviewQuestionSchema>;

/**
 * A result (spec §3 "Quiz grade" / "Text quiz grade"), with the questions as they were answered for the review.
 * `answerKey`: 'shown' (every question has its `correctAnswer`), or why it is withheld from this student (the quiz's
 * `revealAnswers`: 'afterLastAttempt' while an attempt is left, 'never'). `answersCorrect`: per question, whether the
 * answer given was right, which the review shows either way.
 */
export const gradeSchema = z.object({
  id,
  kind: quizKindSchema,
  quizId: id,
  userId: id,
  userName: z.string(),
  quizTitle: z.string(),
  score: z.number().int(),
  correctAnswers: z.number().int(),
  totalQuestions: z.number().int(),
  passed: z.boolean(),
  userAnswers: z.array(z.number().int()),
  questions: z.array(reviewQuestionSchema),
  answersCorrect: z.array(z.boolean()),
  answerKey: z.enum(['shown', 'afterLastAttempt', 'never']),
  quizVersion: z.number().int(),
  createdAt: z.string(),
  completedAt: z.string(),
});
export type Grade = z.infer<typeof gradeSchema>;
export const gradeListSchema = z.array(gradeSchema);

/** GET grades: optional filters (spec §7). A student's list is theirs whatever `userId` says. */
export const gradeQuerySchema = z.object({
  userId: z.string().uuid(M.userIdInvalid).optional(),
  quizId: z.string().uuid(M.quizIdRequired).optional(),
  /** The results of this class's students (ADR 0042); a class outside the caller's scope lists nothing. */
  classId: z.string().uuid(M.classIdInvalid).optional(),
  /** Paged on the server, newest first (common/paging.ts): `X-Total-Count`, `X-Next-Cursor`. */
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(PAGE_LIMIT_MAX, `limit must be at most ${PAGE_LIMIT_MAX}`)
    .default(PAGE_LIMIT_DEFAULT),
  cursor: z.string().max(200).optional(),
});
export type GradeQuery = z.infer<typeof gradeQuerySchema>;

/**
 * GET /api/{kind}-grades/summary?userId&quizId&classId — the dashboards' summary cards and quiz filter, computed by
 * the server over the caller's whole scope with the same filters as the list (not over one page).
 */
export const gradeSummarySchema = z.object({
  totalAttempts: z.number().int(),
  /** Mean score in percent, one decimal; 0 without results. */
  averageScore: z.number(),
  /** Results at or above the pass mark (spec: >= 70 %). */
  passed: z.number().int(),
  /** passed ÷ totalAttempts in percent, one decimal; 0 without results. */
  passRate: z.number(),
  /** The quizzes that have results in scope (a deleted quiz keeps its title), for "Filter by Quiz". */
  quizzes: z.array(z.object({ id, title: z.string() })),
});
export type GradeSummary = z.infer<typeof gradeSummarySchema>;

/** The start of an attempt: the quiz to take (no answer key) and the attempts it leaves. */
export const attemptStartSchema = z.object({
  quiz: quizForTakingSchema,
  attemptsTaken: z.number().int(),
  /** The quiz's limit plus the student's extra attempts; -1 = unlimited. */
  maxAttempts: z.number().int(),
});
export type AttemptStart = z.infer<typeof attemptStartSchema>;

/** A teacher's accommodation: extra attempts for one student on one quiz. */
export const accommodationInputSchema = z.object({
  extraAttempts: z
    .number({ error: M.extraAttemptsInvalid })
    .int(M.extraAttemptsInvalid)
    .min(0, M.extraAttemptsInvalid)
    .max(EXTRA_ATTEMPTS_MAX, M.extraAttemptsInvalid),
});
export type AccommodationInput = z.infer<typeof accommodationInputSchema>;

/**
 * Item analysis of a quiz (teachers, admins): per question the share of results that got it right (facility), how
 * well it separates the strongest from the weakest results (discrimination: the upper 27 % minus the lower 27 %,
 * by score), and how often each option was picked. Only results answered on the quiz's current version count.
 */
export const itemAnalysisSchema = z.object({
  quizId: id,
  version: z.number().int(),
  /** Results on the current version (the ones analysed). */
  results: z.number().int(),
  /** Results on earlier versions of the quiz, left out because their questions differ. */
  olderResults: z.number().int(),
  questions: z.array(
    z.object({
      question: z.string(),
      correctAnswer: z.number().int(),
      /** 0–1; null without results. */
      facility: z.number().nullable(),
      /** -1–1; null with fewer than 2 results. */
      discrimination: z.number().nullable(),
      optionCounts: z.array(z.number().int()),
    }),
  ),
});
export type ItemAnalysis = z.infer<typeof itemAnalysisSchema>;

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  IDEMPOTENCY_KEY_HEADER,
  type AttemptStart,
  type AuthoredQuiz,
  type Grade,
  type ListedQuizForTaking,
  type Quiz,
  type QuizKind,
  type RevealAnswers,
} from '@district/contracts/assessment';
import { api, ApiError } from '@/lib/api-client';
import { listRefreshOptions } from '@/lib/react-query';
import { QUIZ_KINDS, SUBMIT_RETRY_DELAY_MS } from '../quizzes.constants';
import { parseQuizList } from './quiz-guard';

/** The contract's schemas, loaded with the first request that needs one (./assessment-contract.ts, ADR 0023). */
const contract = () => import('./assessment-contract');
const quizSchema = () => contract().then((m) => m.quizSchema);
const attemptStartSchema = () => contract().then((m) => m.attemptStartSchema);
const gradeSchema = () => contract().then((m) => m.gradeSchema);

/**
 * Quizzes of one kind (classroom-tools §7; services/assessment/README.md): GET/POST /api/{kind}-quizzes,
 * PUT/DELETE /api/{kind}-quizzes/{id}, POST /api/{kind}-quizzes/{id}/attempts, POST /api/quiz-grades or
 * /api/text-quiz-grades.
 */
export type ListedQuiz = AuthoredQuiz | ListedQuizForTaking;

export const quizzesQueryKey = (kind: QuizKind) => ['quizzes', kind] as const;

const quizPath = (kind: QuizKind, id: string) => `${QUIZ_KINDS[kind].quizzesPath}/${encodeURIComponent(id)}`;

/** Teachers and admins get the answer key (and `canEdit`); everyone else the quiz without it. */
export function hasAnswerKey(quiz: ListedQuiz): quiz is AuthoredQuiz {
  return 'canEdit' in quiz && quiz.questions.every((q) => 'correctAnswer' in q);
}

/** Edit and Delete are shown as the server decided: the quiz's owner and administrators (ADR 0033). */
export const mayChange = (quiz: ListedQuiz): boolean => hasAnswerKey(quiz) && quiz.canEdit;

/** Whether the caller has no attempt left on the quiz (spec §5; -1 unlimited). */
export const attemptsExhausted = (quiz: ListedQuiz): boolean =>
  quiz.attemptsAllowed !== -1 && quiz.attemptsUsed >= quiz.attemptsAllowed;

export function getQuizzes(kind: QuizKind, signal?: AbortSignal): Promise<ListedQuiz[]> {
  // Checked without zod: the list is the quiz screen's first answer, and its request is preloaded (ADR 0024).
  return api.get(QUIZ_KINDS[kind].quizzesPath, { guard: parseQuizList, signal });
}

/** `enabled` is false while a quiz is taken or edited, so the list is not refetched under the student's feet. */
export function useQuizzes(kind: QuizKind, enabled = true) {
  return useQuery({
    ...listRefreshOptions,
    enabled,
    queryKey: quizzesQueryKey(kind),
    queryFn: ({ signal }) => getQuizzes(kind, signal),
    // A 401 or 403 will not change by asking again.
    retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 1,
  });
}

/** The body of POST and PUT: the whole quiz each time. */
export interface QuizWrite {
  title: string;
  description: string;
  maxAttempts: number;
  audioPlayLimit: number | null;
  revealAnswers: RevealAnswers;
  questions: { question: string; options: string[]; correctAnswer: number; audioUrl?: string }[];
  /** The classes it is assigned to (ADR 0042); left out when unchanged (PUT) or none (POST). */
  classIds?: string[];
}

export const createQuiz = (kind: QuizKind, body: QuizWrite): Promise<Quiz> =>
  api.post(QUIZ_KINDS[kind].quizzesPath, body, { schema: quizSchema });
export const updateQuiz = (kind: QuizKind, id: string, body: QuizWrite): Promise<Quiz> =>
  api.put(quizPath(kind, id), body, { schema: quizSchema });
export const deleteQuiz = (kind: QuizKind, id: string): Promise<void> => api.delete(quizPath(kind, id));

export function useSaveQuiz(kind: QuizKind) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: QuizWrite }) =>
      id ? updateQuiz(kind, id, body) : createQuiz(kind, body),
    onSuccess: () => void client.invalidateQueries({ queryKey: quizzesQueryKey(kind) }),
  });
}

export function useDeleteQuiz(kind: QuizKind) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteQuiz(kind, id),
    onSuccess: (_void, id) => {
      client.setQueryData<ListedQuiz[]>(quizzesQueryKey(kind), (list) => list?.filter((q) => q.id !== id));
      void client.invalidateQueries({ queryKey: quizzesQueryKey(kind) });
    },
  });
}

/** Starts an attempt: 200 the quiz without its key and the counts; 409 'Attempt Limit Reached' (ApiError). */
export const startAttempt = (kind: QuizKind, id: string): Promise<AttemptStart> =>
  api.post(`${quizPath(kind, id)}/attempts`, undefined, { schema: attemptStartSchema });

export function useStartAttempt(kind: QuizKind) {
  return useMutation({ mutationFn: (id: string) => startAttempt(kind, id) });
}

export interface Submission {
  quizId: string;
  /** One option index per question, in the quiz's original question order. */
  userAnswers: number[];
  /** Fresh per attempt; a retry of the same attempt sends the same key, so the server stores it once. */
  idempotencyKey: string;
}

export const submitGrade = (
  kind: QuizKind,
  { quizId, userAnswers, idempotencyKey }: Submission,
): Promise<Grade> =>
  api.post(
    QUIZ_KINDS[kind].gradesPath,
    { quizId, userAnswers },
    { schema: gradeSchema, headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey } },
  );

/** A network failure (no answer at all) is safe to resend with the same key; an answer from the server is final. */
export const isNetworkError = (err: unknown) => err instanceof ApiError && err.status === 0;

export function useSubmitGrade(kind: QuizKind) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (submission: Submission) => submitGrade(kind, submission),
    // The list's attempts used (and whether Start is still allowed) changed with this result.
    onSuccess: () => void client.invalidateQueries({ queryKey: quizzesQueryKey(kind) }),
    retry: (count, err) => count < 1 && isNetworkError(err),
    retryDelay: SUBMIT_RETRY_DELAY_MS,
  });
}

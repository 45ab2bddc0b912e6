import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { gradeListSchema, type Grade, type GradeQuery, type QuizKind } from '@district/contracts/assessment';
import { api, ApiError, errorMessage } from '@/lib/api-client';
import { listRefreshOptions } from '@/lib/react-query';
import { GRADE_KINDS, GradeMessages } from '../grades.constants';
import { itemAnalysisKindKey } from './quiz-insights';

/**
 * Results of one kind (classroom-tools §7; services/assessment/README.md): GET /api/quiz-grades or
 * /api/text-quiz-grades (?userId, ?quizId), DELETE …/{id}. Teachers and admins get every result; anyone else
 * only their own, whatever userId says.
 */
export const gradesQueryKey = (kind: QuizKind, query: GradeQuery = {}) => ['grades', kind, query] as const;

export function getGrades(kind: QuizKind, query: GradeQuery = {}, signal?: AbortSignal): Promise<Grade[]> {
  const params = new URLSearchParams();
  if (query.userId) params.set('userId', query.userId);
  if (query.quizId) params.set('quizId', query.quizId);
  const qs = params.toString();
  return api.get(`${GRADE_KINDS[kind].gradesPath}${qs ? `?${qs}` : ''}`, { schema: gradeListSchema, signal });
}

export function useGrades(kind: QuizKind, query: GradeQuery = {}, enabled = true) {
  return useQuery({
    ...listRefreshOptions,
    enabled,
    queryKey: gradesQueryKey(kind, query),
    queryFn: ({ signal }) => getGrades(kind, query, signal),
    // A 401 or 403 will not change by asking again.
    retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 1,
  });
}

/** Spec §8 "Grades fetch": 401, 403, the server's message (else 'Failed to fetch grades'), network error. */
export function gradesFetchMessage(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.status === 0) return GradeMessages.fetchNetworkFailed;
    if (err.status === 401) return GradeMessages.gradesLoginRequired;
    if (err.status === 403) return GradeMessages.staffOnly;
  }
  return errorMessage(err, GradeMessages.fetchGradesFailed);
}

export const deleteGrade = (kind: QuizKind, id: string): Promise<void> =>
  api.delete(`${GRADE_KINDS[kind].gradesPath}/${encodeURIComponent(id)}`);

export function useDeleteGrade(kind: QuizKind) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteGrade(kind, id),
    onSuccess: (_void, id) => {
      // Spec §4: a successful delete removes the row (from every list of this kind held in the cache).
      client.setQueriesData<Grade[]>({ queryKey: ['grades', kind] }, (list) =>
        list?.filter((g) => g.id !== id),
      );
      void client.invalidateQueries({ queryKey: ['grades', kind] });
      // The item analysis counts the same results: it is stale as soon as one goes.
      void client.invalidateQueries({ queryKey: itemAnalysisKindKey(kind) });
    },
  });
}

/** Spec §8 "Grade delete": the server's message, or the network failure's own toast. */
export function gradeDeleteMessage(err: unknown): string {
  if (err instanceof ApiError && err.status === 0) return GradeMessages.deleteNetworkFailed;
  return GradeMessages.deleteFailed(errorMessage(err, GradeMessages.unknownError));
}

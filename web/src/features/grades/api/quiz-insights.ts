import { useMutation, useQuery } from '@tanstack/react-query';
import {
  itemAnalysisSchema,
  type AccommodationInput,
  type ItemAnalysis,
  type QuizKind,
} from '@district/contracts/assessment';
import { api, ApiError, errorMessage } from '@/lib/api-client';
import { listRefreshOptions } from '@/lib/react-query';
import { GRADE_KINDS, GradeMessages } from '../grades.constants';

/**
 * Teachers' and admins' tools on one quiz (services/assessment/README.md, ADR 0019 §3, §8):
 * GET /api/{kind}-quizzes/{id}/analysis and PUT /api/{kind}-quizzes/{id}/accommodations/{userId}.
 */
const quizPath = (kind: QuizKind, id: string) => `${GRADE_KINDS[kind].quizzesPath}/${encodeURIComponent(id)}`;

/** Every item analysis of a kind (what a result deletion makes stale). */
export const itemAnalysisKindKey = (kind: QuizKind) => ['item-analysis', kind] as const;
export const itemAnalysisQueryKey = (kind: QuizKind, quizId: string, classId?: string) =>
  [...itemAnalysisKindKey(kind), quizId, classId ?? null] as const;

/** Over the caller's scope, or one class's students with `classId` (ADR 0042). */
export const getItemAnalysis = (
  kind: QuizKind,
  quizId: string,
  classId?: string,
  signal?: AbortSignal,
): Promise<ItemAnalysis> =>
  api.get(`${quizPath(kind, quizId)}/analysis${classId ? `?classId=${encodeURIComponent(classId)}` : ''}`, {
    schema: itemAnalysisSchema,
    signal,
  });

export function useItemAnalysis(kind: QuizKind, quizId: string, classId?: string) {
  return useQuery({
    // It refreshes with the dashboard's results list (every 30 s, on focus), so its counts never lag the table.
    ...listRefreshOptions,
    queryKey: itemAnalysisQueryKey(kind, quizId, classId),
    queryFn: ({ signal }) => getItemAnalysis(kind, quizId, classId, signal),
    retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 1,
  });
}

export const saveAccommodation = (
  kind: QuizKind,
  quizId: string,
  userId: string,
  body: AccommodationInput,
): Promise<void> => api.put(`${quizPath(kind, quizId)}/accommodations/${encodeURIComponent(userId)}`, body);

export function useSaveAccommodation(kind: QuizKind) {
  return useMutation({
    mutationFn: ({
      quizId,
      userId,
      extraAttempts,
    }: {
      quizId: string;
      userId: string;
      extraAttempts: number;
    }) => saveAccommodation(kind, quizId, userId, { extraAttempts }),
  });
}

export function accommodationErrorMessage(err: unknown): string {
  if (err instanceof ApiError && err.status === 0) return GradeMessages.accommodationNetworkFailed;
  return GradeMessages.accommodationFailed(errorMessage(err, GradeMessages.unknownError));
}

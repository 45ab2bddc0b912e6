import { useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import {
  gradeListSchema,
  gradeSummarySchema,
  type Grade,
  type GradeQuery,
  type GradeSummary,
  type QuizKind,
} from '@district/contracts/assessment';
import { PAGE_LIMIT_MAX } from '@district/contracts/common';
import { api, ApiError, errorMessage } from '@/lib/api-client';
import { getPage, queryString, usePagedList, type Page } from '@/lib/paging';
import { listRefreshOptions } from '@/lib/react-query';
import { GRADE_KINDS, GradeMessages } from '../grades.constants';
import { itemAnalysisKindKey } from './quiz-insights';

/**
 * Results of one kind (classroom-tools §7; services/assessment/README.md): GET /api/quiz-grades or
 * /api/text-quiz-grades (?userId, ?quizId, ?classId; paged: limit, cursor, X-Total-Count, X-Next-Cursor),
 * GET …/summary (the dashboards' cards and quiz filter over the caller's whole scope), DELETE …/{id}. Teachers see
 * their classes' pupils, school administrators their school's, admins all (ADR 0042); anyone else only their own.
 */
export type GradeFilters = Pick<GradeQuery, 'userId' | 'quizId' | 'classId'>;

export const gradesQueryKey = (kind: QuizKind, query: GradeFilters = {}) => ['grades', kind, query] as const;
export const gradePagesQueryKey = (kind: QuizKind, filters: GradeFilters) =>
  ['grades', kind, 'pages', filters] as const;
export const gradeSummaryQueryKey = (kind: QuizKind, filters: GradeFilters) =>
  ['grades', kind, 'summary', filters] as const;

const filterParams = (query: GradeFilters) => ({
  userId: query.userId,
  quizId: query.quizId,
  classId: query.classId,
});

/**
 * One person's results (the profile's My Quiz Results): the newest PAGE_LIMIT_MAX, the largest page the server gives
 * (the server pages every list; a pupil's own results of a year fit in it).
 */
export function getGrades(kind: QuizKind, query: GradeFilters = {}, signal?: AbortSignal): Promise<Grade[]> {
  const params = { ...filterParams(query), limit: PAGE_LIMIT_MAX };
  return api.get(`${GRADE_KINDS[kind].gradesPath}${queryString(params)}`, {
    schema: gradeListSchema,
    signal,
  });
}

// A 401 or 403 will not change by asking again.
const retryServerErrors = (count: number, err: Error) =>
  !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 1;

export function useGrades(kind: QuizKind, query: GradeFilters = {}, enabled = true) {
  return useQuery({
    ...listRefreshOptions,
    enabled,
    queryKey: gradesQueryKey(kind, query),
    queryFn: ({ signal }) => getGrades(kind, query, signal),
    retry: retryServerErrors,
  });
}

/** The dashboards' table: the newest page of results, the next on "Load more". */
export function useGradePages(kind: QuizKind, filters: GradeFilters) {
  return usePagedList<Grade>({
    queryKey: gradePagesQueryKey(kind, filters),
    path: GRADE_KINDS[kind].gradesPath,
    params: filterParams(filters),
    schema: gradeListSchema,
    refetchInterval: listRefreshOptions.refetchInterval,
    retry: retryServerErrors,
    keepPrevious: true,
  });
}

/** The newest `limit` results (the quizzes screen's table) with the whole count from X-Total-Count. */
export function useRecentGrades(kind: QuizKind, limit: number) {
  return useQuery({
    ...listRefreshOptions,
    queryKey: ['grades', kind, 'recent', limit] as const,
    queryFn: ({ signal }) => getPage(GRADE_KINDS[kind].gradesPath, { limit }, gradeListSchema, signal),
    retry: retryServerErrors,
  });
}

export const getGradeSummary = (
  kind: QuizKind,
  filters: GradeFilters,
  signal?: AbortSignal,
): Promise<GradeSummary> =>
  api.get(`${GRADE_KINDS[kind].gradesPath}/summary${queryString(filterParams(filters))}`, {
    schema: gradeSummarySchema,
    signal,
  });

/** The summary cards and the quizzes with results, computed by the server over every result in scope. */
export function useGradeSummary(kind: QuizKind, filters: GradeFilters) {
  return useQuery({
    ...listRefreshOptions,
    queryKey: gradeSummaryQueryKey(kind, filters),
    queryFn: ({ signal }) => getGradeSummary(kind, filters, signal),
    retry: retryServerErrors,
    placeholderData: (previous) => previous,
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

function withoutGrade<T>(held: T, id: string): T {
  if (Array.isArray(held)) return held.filter((g: Grade) => g.id !== id) as T;
  if (held && typeof held === 'object' && 'pages' in held) {
    const data = held as unknown as InfiniteData<Page<Grade>>;
    const found = data.pages.some((p) => p.items.some((g) => g.id === id));
    return {
      ...data,
      pages: data.pages.map((p) => ({
        ...p,
        items: p.items.filter((g) => g.id !== id),
        total: found && p.total !== null ? p.total - 1 : p.total,
      })),
    } as T;
  }
  return held;
}

export const deleteGrade = (kind: QuizKind, id: string): Promise<void> =>
  api.delete(`${GRADE_KINDS[kind].gradesPath}/${encodeURIComponent(id)}`);

export function useDeleteGrade(kind: QuizKind) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteGrade(kind, id),
    onSuccess: (_void, id) => {
      // Spec §4: a successful delete removes the row (from every list of this kind held in the cache, paged or
      // not); the summaries are asked again below.
      client.setQueriesData<Grade[] | InfiniteData<Page<Grade>> | GradeSummary>(
        { queryKey: ['grades', kind] },
        (held) => withoutGrade(held, id),
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

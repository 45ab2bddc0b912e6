import { useQuery } from '@tanstack/react-query';
import type { ClassDetail, ClassSummary } from '@district/contracts/identity';
import { api, ApiError } from '@/lib/api-client';
import { usePagedList } from '@/lib/paging';

/**
 * A school's classes for its administrators (GET /api/classes?schoolId=, paged: X-Total-Count, X-Next-Cursor) and one
 * class with its roster (GET /api/classes/{id}). The caller's own classes are `useMyClasses` (@/lib/roster).
 */
const contract = () => import('./identity-contract');

export const schoolClassesQueryKey = (schoolId: string) => ['roster', 'classes', 'school', schoolId] as const;
export const classQueryKey = (id: string) => ['roster', 'class', id] as const;

export function useSchoolClasses(schoolId: string) {
  return usePagedList<ClassSummary>({
    queryKey: schoolClassesQueryKey(schoolId),
    path: '/api/classes',
    params: { schoolId },
    schema: () => contract().then((m) => m.classSummarySchema.array()),
    enabled: schoolId !== '',
  });
}

export const getClass = (id: string, signal?: AbortSignal): Promise<ClassDetail> =>
  api.get(`/api/classes/${encodeURIComponent(id)}`, {
    schema: () => contract().then((m) => m.classDetailSchema),
    signal,
  });

export function useClass(id: string) {
  return useQuery({
    queryKey: classQueryKey(id),
    queryFn: ({ signal }) => getClass(id, signal),
    retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 1,
  });
}

/** The class's OneRoster gradebook (lineItems, results), for its teachers and administrators. */
export const classResultsZipUrl = (id: string) => `/api/classes/${encodeURIComponent(id)}/results.zip`;

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  lessonPlanListSchema,
  lessonPlanSchema,
  type LessonPlan,
  type LessonPlanInput,
} from '@district/contracts/classroom';
import { api } from '@/lib/api-client';
import { listRefreshOptions } from '@/lib/react-query';
import { noRetryOnClientError } from './retry';

/** Lesson plans (classroom-tools §7): GET/POST /api/lesson-plans, PUT/DELETE /api/lesson-plans/{id}. */
export const LESSON_PLANS_PATH = '/api/lesson-plans';
export const lessonPlansQueryKey = ['classroom', 'lesson-plans'] as const;
const planPath = (id: string) => `${LESSON_PLANS_PATH}/${encodeURIComponent(id)}`;

export const getLessonPlans = (signal?: AbortSignal): Promise<LessonPlan[]> =>
  api.get(LESSON_PLANS_PATH, { schema: lessonPlanListSchema, signal });

/** `enabled` is false while the form is open, so a refresh never lands under the teacher's typing. */
export function useLessonPlans(enabled = true) {
  return useQuery({
    ...listRefreshOptions,
    enabled,
    queryKey: lessonPlansQueryKey,
    queryFn: ({ signal }) => getLessonPlans(signal),
    retry: noRetryOnClientError,
  });
}

export function useSaveLessonPlan() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: LessonPlanInput }) =>
      id
        ? api.put(planPath(id), body, { schema: lessonPlanSchema })
        : api.post(LESSON_PLANS_PATH, body, { schema: lessonPlanSchema }),
    onSuccess: () => client.invalidateQueries({ queryKey: lessonPlansQueryKey }),
  });
}

export function useDeleteLessonPlan() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(planPath(id)),
    onSuccess: (_void, id) => {
      client.setQueryData<LessonPlan[]>(lessonPlansQueryKey, (list) => list?.filter((p) => p.id !== id));
      void client.invalidateQueries({ queryKey: lessonPlansQueryKey });
    },
  });
}

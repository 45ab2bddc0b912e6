import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Category, type CategoryRequest } from '@district/contracts/content';
import { parseCategoryList } from './category-guard';
import { contentSchemas } from './content-schemas';
import { api } from '@/lib/api-client';
import { announceBlogDataUpdated, listRefreshOptions } from '@/lib/react-query';

/** One list for the lesson filter, the post editor and category management. */
export const categoriesQueryKey = ['categories'] as const;

const categoryPath = (id: string) => `/api/categories/${encodeURIComponent(id)}`;

export function getCategories(signal?: AbortSignal): Promise<Category[]> {
  // Checked without zod: `/blog` shows the filter on its first screen, and its request is preloaded (ADR 0024).
  return api.get('/api/categories', { guard: parseCategoryList, signal });
}

export function useCategories() {
  return useQuery({
    ...listRefreshOptions,
    queryKey: categoriesQueryKey,
    queryFn: ({ signal }) => getCategories(signal),
  });
}

export const createCategory = (body: CategoryRequest): Promise<Category> =>
  api.post('/api/categories', body, { schema: contentSchemas.category });
export const updateCategory = (id: string, body: CategoryRequest): Promise<Category> =>
  api.put(categoryPath(id), body, { schema: contentSchemas.category });
export const deleteCategory = (id: string): Promise<void> => api.delete(categoryPath(id));

/** Creates a category, or updates category `id`; the list is refetched before it resolves. */
export function useSaveCategory() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: CategoryRequest }) =>
      id ? updateCategory(id, body) : createCategory(body),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: categoriesQueryKey });
      announceBlogDataUpdated();
    },
  });
}

export function useDeleteCategory() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteCategory,
    onSuccess: (_void, id) => {
      client.setQueryData<Category[]>(categoriesQueryKey, (list) => list?.filter((c) => c.id !== id));
      announceBlogDataUpdated();
    },
  });
}

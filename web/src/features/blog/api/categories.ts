import { useQuery } from '@tanstack/react-query';
import { categoryListSchema, type Category } from '@district/contracts';
import { api } from '@/lib/api-client';
import { listRefreshOptions } from '@/lib/react-query';

export const categoriesQueryKey = ['categories'] as const;

export function getCategories(signal?: AbortSignal): Promise<Category[]> {
  return api.get('/api/categories', { schema: categoryListSchema, signal });
}

export function useCategories() {
  return useQuery({
    ...listRefreshOptions,
    queryKey: categoriesQueryKey,
    queryFn: ({ signal }) => getCategories(signal),
  });
}

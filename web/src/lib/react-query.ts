import { useEffect } from 'react';
import { QueryClient, useQueryClient } from '@tanstack/react-query';
import { BLOG_DATA_UPDATED_EVENT, LIST_REFRESH_INTERVAL_MS } from '@/config/constants';

/**
 * Spec section 4: lists refresh every 30 s while the tab is visible, on focus, and on `blog-data-updated`.
 * Spread into any list query: `useQuery({ ...listRefreshOptions, queryKey, queryFn })`.
 */
export const listRefreshOptions = {
  refetchInterval: LIST_REFRESH_INTERVAL_MS,
  refetchIntervalInBackground: false,
  refetchOnWindowFocus: true,
} as const;

export function createQueryClient(options: { retry?: boolean } = {}): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 5_000,
        refetchOnWindowFocus: true,
        retry: options.retry === false ? false : 1,
      },
      mutations: { retry: false },
    },
  });
}

/**
 * The refresh triggers TanStack does not have built in. It refetches on tab visibility by itself; the spec
 * also wants window focus (switching back from another window while the tab stayed visible) and the
 * `blog-data-updated` event, which any part of the page may dispatch after changing blog data.
 */
export function useListRefreshTriggers(): void {
  const client = useQueryClient();
  useEffect(() => {
    const onUpdated = () => void client.invalidateQueries();
    const onFocus = () => void client.refetchQueries({ type: 'active', stale: true });
    window.addEventListener(BLOG_DATA_UPDATED_EVENT, onUpdated);
    window.addEventListener('focus', onFocus);
    return () => {
      window.removeEventListener(BLOG_DATA_UPDATED_EVENT, onUpdated);
      window.removeEventListener('focus', onFocus);
    };
  }, [client]);
}

/** Lets a feature announce that blog data changed (other tabs of the same page listen too). */
export function announceBlogDataUpdated(): void {
  window.dispatchEvent(new Event(BLOG_DATA_UPDATED_EVENT));
}

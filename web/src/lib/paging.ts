import { keepPreviousData, useInfiniteQuery, type InfiniteData, type QueryKey } from '@tanstack/react-query';
import { NEXT_CURSOR_HEADER, TOTAL_COUNT_HEADER } from '@district/contracts/common';
import type { ZodType } from 'zod';
import { apiResponse } from './api-client';

/**
 * Lists that grow with a district page on the server (ADR 0042, contracts/common/paging.ts): `limit` and an opaque
 * `cursor` in, the page's rows with `X-Total-Count` and `X-Next-Cursor` out. Screens show the rows loaded so far, the
 * whole count, and a "Load more" that asks for the next page.
 */
export interface Page<T> {
  items: T[];
  /** The whole list's count; null when the server did not say (an older server answering one array). */
  total: number | null;
  /** The next page's cursor; null on the last page. */
  nextCursor: string | null;
}

export type PageParams = Record<string, string | number | null | undefined>;

/** `?a=1&b=2` from the set parameters (empty ones left out), or ''. */
export function queryString(params: PageParams): string {
  const qs = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== null && value !== '') qs.set(key, String(value));
  const text = qs.toString();
  return text ? `?${text}` : '';
}

export async function getPage<T>(
  path: string,
  params: PageParams,
  schema: ZodType<T[]> | (() => Promise<ZodType<T[]>>),
  signal?: AbortSignal,
): Promise<Page<T>> {
  const { data, headers } = await apiResponse<T[]>(`${path}${queryString(params)}`, { schema, signal });
  const total = headers.get(TOTAL_COUNT_HEADER);
  const parsedTotal = total === null ? NaN : Number(total);
  return {
    items: data,
    total: Number.isFinite(parsedTotal) ? parsedTotal : null,
    nextCursor: headers.get(NEXT_CURSOR_HEADER) || null,
  };
}

export interface PagedListOptions<T> {
  queryKey: QueryKey;
  path: string;
  /** The filters (the cursor is added per page). */
  params: PageParams;
  schema: ZodType<T[]> | (() => Promise<ZodType<T[]>>);
  enabled?: boolean;
  refetchInterval?: number | false;
  retry?: boolean | number | ((count: number, error: Error) => boolean);
  /** Keep showing the previous filters' rows while the new filters' first page loads (a search box). */
  keepPrevious?: boolean;
}

/** Every page loaded so far, as one list with the server's total and whether there is more. */
export interface PagedRows<T> {
  items: T[];
  total: number | null;
  hasMore: boolean;
}

export function rowsOf<T>(data: InfiniteData<Page<T>> | undefined): PagedRows<T> {
  const pages = data?.pages ?? [];
  return {
    items: pages.flatMap((p) => p.items),
    total: pages[0]?.total ?? null,
    hasMore: Boolean(pages.at(-1)?.nextCursor),
  };
}

/** A server-paged list: the first page at once, the next one on `fetchNextPage()` ("Load more"). */
export function usePagedList<T>({
  queryKey,
  path,
  params,
  schema,
  enabled = true,
  refetchInterval,
  retry,
  keepPrevious = false,
}: PagedListOptions<T>) {
  return useInfiniteQuery({
    queryKey,
    enabled,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) => getPage<T>(path, { ...params, cursor: pageParam }, schema, signal),
    getNextPageParam: (last: Page<T>) => last.nextCursor,
    ...(refetchInterval !== undefined
      ? { refetchInterval, refetchIntervalInBackground: false, refetchOnWindowFocus: true }
      : {}),
    ...(retry !== undefined ? { retry } : {}),
    ...(keepPrevious ? { placeholderData: keepPreviousData } : {}),
  });
}

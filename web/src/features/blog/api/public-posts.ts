import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { TOTAL_COUNT_HEADER } from '@district/contracts/common';
import type { Post } from '@district/contracts/content';
import { api, apiResponse } from '@/lib/api-client';
import { contentSchemas } from './content-schemas';
import { listRefreshOptions } from '@/lib/react-query';

/** What readers see (spec §7): published posts only, through /api/posts/public. Kept apart from ./posts so the home route loads no admin code. */

// The contract's schemas load with the first request (./content-schemas.ts): the first screen's lessons come
// with the page (./initial-data.ts), so zod is not part of the blog's first paint (ADR 0023).
const { postList: postListSchema, post: postSchema } = contentSchemas;

export const publicPostsQueryKey = ['posts', 'public'] as const;

/** Home page: the newest published posts (the server orders newest first). */
export function getLatestPosts(limit: number, signal?: AbortSignal): Promise<Post[]> {
  return api.get(`/api/posts/public?limit=${limit}`, { schema: postListSchema, signal });
}

export function useLatestPosts(limit: number) {
  return useQuery({
    ...listRefreshOptions,
    queryKey: [...publicPostsQueryKey, 'latest', limit],
    queryFn: ({ signal }) => getLatestPosts(limit, signal),
  });
}

export interface PostListParams {
  q: string;
  category: string;
  page: number;
  limit: number;
}

export interface PostPage {
  posts: Post[];
  total: number;
}

/** GET /api/posts/public with search, category and paging; the total travels in `X-Total-Count`. */
export async function getPostPage(params: PostListParams, signal?: AbortSignal): Promise<PostPage> {
  const query = new URLSearchParams({ limit: String(params.limit), page: String(params.page) });
  if (params.q) query.set('q', params.q);
  if (params.category) query.set('category', params.category);
  const { data, headers } = await apiResponse(`/api/posts/public?${query.toString()}`, {
    schema: postListSchema,
    signal,
  });
  const header = Number(headers.get(TOTAL_COUNT_HEADER));
  const total = Number.isFinite(header) && headers.has(TOTAL_COUNT_HEADER) ? header : data.length;
  return { posts: data, total };
}

export function usePostPage(params: PostListParams) {
  return useQuery({
    ...listRefreshOptions,
    queryKey: [...publicPostsQueryKey, 'page', params],
    queryFn: ({ signal }) => getPostPage(params, signal),
    // Keep the current cards while the next page or search loads, so the list does not jump.
    placeholderData: keepPreviousData,
  });
}

export const publicPostQueryKey = (slug: string) => ['posts', 'public', 'one', slug] as const;

/** The spec asks for the single post with the cache bypassed. */
export function getPublicPost(slug: string, signal?: AbortSignal): Promise<Post> {
  return api.get(`/api/posts/public/${encodeURIComponent(slug)}`, {
    schema: postSchema,
    signal,
    noCache: true,
  });
}

export function usePublicPost(slug: string) {
  return useQuery({
    queryKey: publicPostQueryKey(slug),
    queryFn: ({ signal }) => getPublicPost(slug, signal),
  });
}

export function postCategory(post: Post): string | null {
  return post.categoryName ?? post.category ?? null;
}

export function postDate(post: Post): string {
  return post.publishedAt ?? post.createdAt;
}

/** Newest first, at most `limit` (kept on the client too, so the home page never depends on the server's order). */
export function latestPosts(posts: Post[], limit: number): Post[] {
  const time = (p: Post) => {
    const t = Date.parse(postDate(p));
    return Number.isNaN(t) ? 0 : t;
  };
  return [...posts].sort((a, b) => time(b) - time(a)).slice(0, limit);
}

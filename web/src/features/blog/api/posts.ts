import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { postListSchema, postSchema, TOTAL_COUNT_HEADER, type Post } from '@district/contracts';
import { api, ApiError } from '@/lib/api-client';
import { listRefreshOptions } from '@/lib/react-query';

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

/**
 * GET /api/posts/public with search, category and paging. The total travels in `X-Total-Count`, a header
 * the shared client does not expose, so this one call reads the response itself (same-origin, credentials).
 */
export async function getPostPage(params: PostListParams, signal?: AbortSignal): Promise<PostPage> {
  const query = new URLSearchParams({ limit: String(params.limit), page: String(params.page) });
  if (params.q) query.set('q', params.q);
  if (params.category) query.set('category', params.category);
  let res: Response;
  try {
    res = await fetch(`/api/posts/public?${query.toString()}`, {
      credentials: 'include',
      headers: { Accept: 'application/json' },
      signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'Network error. Please check your connection and try again.', false);
  }
  if (!res.ok) throw new ApiError(res.status, `Request failed (${res.status})`, false);
  const parsed = postListSchema.safeParse(await res.json().catch(() => null));
  if (!parsed.success) throw new ApiError(res.status, 'The server sent an unexpected answer.', false);
  const header = Number(res.headers.get(TOTAL_COUNT_HEADER));
  const total = Number.isFinite(header) && res.headers.has(TOTAL_COUNT_HEADER) ? header : parsed.data.length;
  return { posts: parsed.data, total };
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

export function updatePost(id: string, changes: { title: string; content: string }): Promise<Post> {
  return api.put(`/api/posts/${encodeURIComponent(id)}`, changes, { schema: postSchema });
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

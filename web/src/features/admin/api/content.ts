import { useQuery } from '@tanstack/react-query';
import {
  categoryListSchema,
  categorySchema,
  commentListSchema,
  commentSchema,
  postListSchema,
  postSchema,
  type Category,
  type CategoryRequest,
  type Comment,
  type CreatePostRequest,
  type UpdatePostRequest,
  uploadImageResponseSchema,
  seoSettingsSchema,
  sitemapGenerateResponseSchema,
  type SeoSettings,
  type CommentStatus,
  type Post,
  type PostStatus,
} from '@district/contracts';
import { api, ApiError } from '@/lib/api-client';
import { listRefreshOptions } from '@/lib/react-query';

/** Admin calls of the content service (spec §7). */

export const adminPostsQueryKey = ['admin', 'posts'] as const;
export const adminCategoriesQueryKey = ['admin', 'categories'] as const;
export const adminCommentsQueryKey = ['admin', 'comments'] as const;

const postPath = (id: string) => `/api/posts/${encodeURIComponent(id)}`;
const categoryPath = (id: string) => `/api/categories/${encodeURIComponent(id)}`;
const commentPath = (id: string) => `/api/comments/${encodeURIComponent(id)}`;

export const getAllPosts = (signal?: AbortSignal): Promise<Post[]> =>
  api.get('/api/posts', { schema: postListSchema, signal });
export const setPostStatus = (id: string, status: PostStatus): Promise<Post> =>
  api.patch(`${postPath(id)}/status`, { status }, { schema: postSchema });
export const deletePost = (id: string): Promise<void> => api.delete(postPath(id));

export function useAllPosts() {
  return useQuery({
    ...listRefreshOptions,
    queryKey: adminPostsQueryKey,
    queryFn: ({ signal }) => getAllPosts(signal),
  });
}

export const getCategories = (signal?: AbortSignal): Promise<Category[]> =>
  api.get('/api/categories', { schema: categoryListSchema, signal });
export const createCategory = (body: CategoryRequest): Promise<Category> =>
  api.post('/api/categories', body, { schema: categorySchema });
export const updateCategory = (id: string, body: CategoryRequest): Promise<Category> =>
  api.put(categoryPath(id), body, { schema: categorySchema });
export const deleteCategory = (id: string): Promise<void> => api.delete(categoryPath(id));

export function useAdminCategories() {
  return useQuery({
    ...listRefreshOptions,
    queryKey: adminCategoriesQueryKey,
    queryFn: ({ signal }) => getCategories(signal),
  });
}

export const getAllComments = (signal?: AbortSignal): Promise<Comment[]> =>
  api.get('/api/comments', { schema: commentListSchema, signal });
export const setCommentStatus = (id: string, status: CommentStatus): Promise<Comment> =>
  api.patch(`${commentPath(id)}/status`, { status }, { schema: commentSchema });
export const deleteComment = (id: string): Promise<void> => api.delete(commentPath(id));

export function useAllComments() {
  return useQuery({
    ...listRefreshOptions,
    queryKey: adminCommentsQueryKey,
    queryFn: ({ signal }) => getAllComments(signal),
  });
}

export const adminPostQueryKey = (id: string) => ['admin', 'posts', id] as const;
export const getPost = (id: string, signal?: AbortSignal): Promise<Post> =>
  api.get(postPath(id), { schema: postSchema, signal, noCache: true });
export const createPost = (body: CreatePostRequest): Promise<Post> =>
  api.post('/api/posts', body, { schema: postSchema });
export const savePost = (id: string, body: UpdatePostRequest): Promise<Post> =>
  api.put(postPath(id), body, { schema: postSchema });

export function useAdminPost(id: string | undefined) {
  return useQuery({
    queryKey: adminPostQueryKey(id ?? ''),
    queryFn: ({ signal }) => getPost(id!, signal),
    enabled: Boolean(id),
  });
}

/**
 * POST /api/upload-image, multipart field `image` (the shared client speaks JSON only). Throws ApiError with
 * the server's message when it sent one.
 */
export async function uploadImage(file: File): Promise<string> {
  const form = new FormData();
  form.append('image', file);
  let res: Response;
  try {
    res = await fetch('/api/upload-image', {
      method: 'POST',
      body: form,
      credentials: 'include',
      headers: { Accept: 'application/json' },
    });
  } catch {
    throw new ApiError(0, 'Network error. Please check your connection and try again.', false);
  }
  const data: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const message =
      data && typeof data === 'object' && 'message' in data && typeof data.message === 'string'
        ? data.message
        : null;
    throw new ApiError(res.status, message ?? `Request failed (${res.status})`, message !== null);
  }
  const parsed = uploadImageResponseSchema.safeParse(data);
  if (!parsed.success) throw new ApiError(res.status, 'The server sent an unexpected answer.', false);
  return parsed.data.url;
}

export const seoSettingsQueryKey = ['admin', 'seo-settings'] as const;
export const getSeoSettings = (signal?: AbortSignal): Promise<SeoSettings> =>
  api.get('/api/seo/settings', { schema: seoSettingsSchema, signal });
export const saveSeoSettings = (body: SeoSettings): Promise<SeoSettings> =>
  api.post('/api/seo/settings', body, { schema: seoSettingsSchema });
export const generateSitemap = () =>
  api.post('/api/seo/sitemap/generate', undefined, { schema: sitemapGenerateResponseSchema });

export function useSeoSettings() {
  return useQuery({ queryKey: seoSettingsQueryKey, queryFn: ({ signal }) => getSeoSettings(signal) });
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type CreatePostRequest,
  type Post,
  type PostStatus,
  type UpdatePostRequest,
} from '@district/contracts/content';
import { contentSchemas } from './content-schemas';
import { api, ApiError } from '@/lib/api-client';
import { announceBlogDataUpdated, listRefreshOptions } from '@/lib/react-query';
import { BlogMessages } from '../blog.constants';

/** Every post, drafts included, and the calls that change one (spec §7: admins, and the post page's inline edit). */

export const allPostsQueryKey = ['admin', 'posts'] as const;
export const postQueryKey = (id: string) => [...allPostsQueryKey, id] as const;

const postPath = (id: string) => `/api/posts/${encodeURIComponent(id)}`;

export const getAllPosts = (signal?: AbortSignal): Promise<Post[]> =>
  api.get('/api/posts', { schema: contentSchemas.postList, signal });

export function useAllPosts() {
  return useQuery({
    ...listRefreshOptions,
    queryKey: allPostsQueryKey,
    queryFn: ({ signal }) => getAllPosts(signal),
  });
}

export const getPost = (id: string, signal?: AbortSignal): Promise<Post> =>
  api.get(postPath(id), { schema: contentSchemas.post, signal, noCache: true });

export function usePost(id: string | undefined) {
  return useQuery({
    queryKey: postQueryKey(id ?? ''),
    queryFn: ({ signal }) => getPost(id!, signal),
    enabled: Boolean(id),
  });
}

export const createPost = (body: CreatePostRequest): Promise<Post> =>
  api.post('/api/posts', body, { schema: contentSchemas.post });
export const updatePost = (id: string, body: UpdatePostRequest): Promise<Post> =>
  api.put(postPath(id), body, { schema: contentSchemas.post });
export const setPostStatus = (id: string, status: PostStatus): Promise<Post> =>
  api.patch(`${postPath(id)}/status`, { status }, { schema: contentSchemas.post });
export const deletePost = (id: string): Promise<void> => api.delete(postPath(id));

/** Spec §8 wording: 'Failed to save post: {status}' when the server answered, otherwise the thrown message. */
export function savePostErrorText(err: unknown): string {
  if (err instanceof ApiError && err.status >= 400) return BlogMessages.savePostFailed(err.status);
  return saveErrorInline(err);
}

/** Spec §8, the editor's own line: 'Error saving post: {message or Unknown error}' (the server's message on a refusal). */
export function saveErrorInline(err: unknown): string {
  return `Error saving post: ${err instanceof Error && err.message ? err.message : 'Unknown error'}`;
}

/** The post editor's save: creates the post, or updates post `id`; the list is refetched before it resolves. */
export function useSavePost(id: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreatePostRequest) => (id ? updatePost(id, body) : createPost(body)),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: allPostsQueryKey });
      announceBlogDataUpdated();
    },
  });
}

/** Publish or unpublish; the answer replaces the post in the list. */
export function useSetPostStatus() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: PostStatus }) => setPostStatus(id, status),
    onSuccess: (updated) => {
      client.setQueryData<Post[]>(allPostsQueryKey, (list) =>
        list?.map((p) => (p.id === updated.id ? updated : p)),
      );
      announceBlogDataUpdated();
    },
  });
}

export function useDeletePost() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deletePost,
    onSuccess: (_void, id) => {
      client.setQueryData<Post[]>(allPostsQueryKey, (list) => list?.filter((p) => p.id !== id));
      announceBlogDataUpdated();
    },
  });
}

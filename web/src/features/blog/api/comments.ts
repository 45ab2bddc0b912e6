import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Comment, type CommentStatus } from '@district/contracts/content';
import { parseCommentList } from './comment-guard';
import { contentSchemas } from './content-schemas';
import { api } from '@/lib/api-client';
import { announceBlogDataUpdated, listRefreshOptions } from '@/lib/react-query';

/** A post's comments for its readers, and every comment for moderation (spec §7). */

export const postCommentsQueryKey = (postId: string) => ['comments', 'post', postId] as const;
export const allCommentsQueryKey = ['admin', 'comments'] as const;

const postCommentsPath = (postId: string) => `/api/posts/${encodeURIComponent(postId)}/comments`;
const commentPath = (id: string) => `/api/comments/${encodeURIComponent(id)}`;

export function getPostComments(postId: string, signal?: AbortSignal): Promise<Comment[]> {
  // Checked without zod: a lesson loads its comments with its first screen, preloaded by the page (ADR 0024).
  return api.get(postCommentsPath(postId), { guard: parseCommentList, signal });
}

export function usePostComments(postId: string) {
  return useQuery({
    ...listRefreshOptions,
    queryKey: postCommentsQueryKey(postId),
    queryFn: ({ signal }) => getPostComments(postId, signal),
  });
}

export interface NewComment {
  content: string;
  parentId: string | null;
}

/** Spec §4: the client sends new comments as approved; the server decides (students wait while moderation is on). */
export function useAddComment(postId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (c: NewComment) =>
      api.post(postCommentsPath(postId), { ...c, status: 'approved' }, { schema: contentSchemas.comment }),
    onSuccess: () => client.invalidateQueries({ queryKey: postCommentsQueryKey(postId) }),
  });
}

export const getAllComments = (signal?: AbortSignal): Promise<Comment[]> =>
  api.get('/api/comments', { schema: contentSchemas.commentList, signal });
export const setCommentStatus = (id: string, status: CommentStatus): Promise<Comment> =>
  api.patch(`${commentPath(id)}/status`, { status }, { schema: contentSchemas.comment });
export const deleteComment = (id: string): Promise<void> => api.delete(commentPath(id));

export function useAllComments() {
  return useQuery({
    ...listRefreshOptions,
    queryKey: allCommentsQueryKey,
    queryFn: ({ signal }) => getAllComments(signal),
  });
}

/** Approve or unapprove; only the status of the listed comment changes. */
export function useSetCommentStatus() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: CommentStatus }) => setCommentStatus(id, status),
    onSuccess: (updated) => {
      client.setQueryData<Comment[]>(allCommentsQueryKey, (list) =>
        list?.map((x) => (x.id === updated.id ? { ...x, status: updated.status } : x)),
      );
      announceBlogDataUpdated();
    },
  });
}

export function useDeleteComment() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteComment,
    onSuccess: (_void, id) => {
      // Its replies go with it on the server, so drop them here too.
      client.setQueryData<Comment[]>(allCommentsQueryKey, (list) =>
        list?.filter((x) => x.id !== id && x.parentId !== id),
      );
      announceBlogDataUpdated();
    },
  });
}

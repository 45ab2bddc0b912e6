import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { commentListSchema, commentSchema, type Comment } from '@district/contracts';
import { api } from '@/lib/api-client';
import { listRefreshOptions } from '@/lib/react-query';

export const postCommentsQueryKey = (postId: string) => ['comments', 'post', postId] as const;

const commentsPath = (postId: string) => `/api/posts/${encodeURIComponent(postId)}/comments`;

export function getPostComments(postId: string, signal?: AbortSignal): Promise<Comment[]> {
  return api.get(commentsPath(postId), { schema: commentListSchema, signal });
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
      api.post(commentsPath(postId), { ...c, status: 'approved' }, { schema: commentSchema }),
    onSuccess: () => client.invalidateQueries({ queryKey: postCommentsQueryKey(postId) }),
  });
}

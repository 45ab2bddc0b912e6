import { z } from 'zod';
import { commentStatusSchema } from './schemas';

const id = z.string().uuid();

/** content.post.published.v1 — a post became public (or a public post changed). */
export const postPublishedEventSchema = z.object({
  post: z.object({
    id,
    slug: z.string(),
    title: z.string(),
    authorId: id,
    categoryId: id.nullable(),
    publishedAt: z.string(),
  }),
});
export type PostPublishedEvent = z.infer<typeof postPublishedEventSchema>;
/** content.post.unpublished.v1 — back to draft. */
export const postUnpublishedEventSchema = z.object({ postId: id, slug: z.string() });
export type PostUnpublishedEvent = z.infer<typeof postUnpublishedEventSchema>;
/** content.post.deleted.v1 */
export const postDeletedEventSchema = z.object({ postId: id });
export type PostDeletedEvent = z.infer<typeof postDeletedEventSchema>;

/** content.comment.created.v1 / content.comment.updated.v1 (status changed). */
export const commentChangedEventSchema = z.object({
  comment: z.object({
    id,
    postId: id,
    parentId: id.nullable(),
    authorId: id.nullable(),
    status: commentStatusSchema,
  }),
});
export type CommentChangedEvent = z.infer<typeof commentChangedEventSchema>;
/** content.comment.deleted.v1 — also for each reply removed with its parent. */
export const commentDeletedEventSchema = z.object({ commentId: id, postId: id });
export type CommentDeletedEvent = z.infer<typeof commentDeletedEventSchema>;

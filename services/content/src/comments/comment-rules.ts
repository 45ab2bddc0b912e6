import type { Comment, CommentStatus } from '@district/contracts';
import { holdsRight, type AuthUser } from '@district/nest-common';

/** A comment as stored, author id included (events and admins need it; see forViewer). */
export type FullComment = Comment & { authorId: string | null };

/** An admin flag counts only on an approved account (the platform's rule; anyone may register, an admin approves). */
export function isApprovedAdmin(user: Pick<AuthUser, 'role' | 'approved' | 'isAdmin'> | undefined): boolean {
  return user !== undefined && holdsRight(user, 'admin');
}

/**
 * A comment as a viewer may see it: authors' user ids go to admins only, since lists are public and an id ties
 * a pupil's comments together across posts (the `own` flag tells the author which are theirs).
 */
export function forViewer(comment: Comment, viewer: AuthUser | undefined): Comment {
  if (isApprovedAdmin(viewer)) return comment;
  const { authorId: _hidden, replies, ...rest } = comment;
  return replies ? { ...rest, replies: replies.map((reply) => forViewer(reply, viewer)) } : rest;
}

/**
 * The server decides a new comment's status (spec §4 has clients send one; only admins' is honoured):
 * approved admins choose (approved by default), approved teachers' comments are approved, and everyone else's
 * wait for approval while moderation is on. Anyone can register as a teacher, so the role and the admin flag
 * count only once an admin has approved the account.
 */
export function commentStatusFor(
  author: Pick<AuthUser, 'role' | 'approved' | 'isAdmin'>,
  requested: CommentStatus | undefined,
  moderation: boolean,
): CommentStatus {
  if (isApprovedAdmin(author)) return requested ?? 'approved';
  if (holdsRight(author, 'teacher')) return 'approved';
  return moderation ? 'pending' : 'approved';
}

/** Top-level comments in their order, each with its replies (one level) in theirs. */
export function threaded(comments: readonly Comment[]): Comment[] {
  const top: Comment[] = [];
  const byId = new Map<string, Comment>();
  for (const comment of comments) {
    if (comment.parentId === null) {
      comment.replies = [];
      top.push(comment);
      byId.set(comment.id, comment);
    }
  }
  for (const comment of comments) {
    if (comment.parentId !== null) byId.get(comment.parentId)?.replies?.push(comment);
  }
  return top;
}

import type { Comment, CommentStatus } from '@district/contracts/content';
import { isBoolean, isString, isUuid, matchShape, oneOf, type FieldChecks } from '@/lib/shape-guard';

const STATUSES: Record<CommentStatus, true> = { pending: true, approved: true };
const optional = (check: (v: unknown) => boolean) => (v: unknown) => v === undefined || check(v);
const isNullableUuid = (v: unknown) => v === null || isUuid(v);

/** Every field of the contract's Comment; `replies` is checked item by item below (comments nest). */
const COMMENT_FIELDS: FieldChecks<Comment> = {
  id: isUuid,
  postId: isUuid,
  content: isString,
  authorId: optional(isNullableUuid),
  authorName: isString,
  createdAt: isString,
  parentId: isNullableUuid,
  status: oneOf(STATUSES),
  own: optional(isBoolean),
  postTitle: optional(isString),
  replies: optional(Array.isArray),
};

/**
 * The contract's commentSchema without zod (src/lib/shape-guard.ts), for the comments a lesson's first screen
 * loads: the comment with its listed fields only (an absent optional field stays absent, as zod leaves it), its
 * replies checked the same way, or undefined.
 */
export function parseComment(value: unknown): Comment | undefined {
  if (!matchShape(value, COMMENT_FIELDS)) return undefined;
  const record = value as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(COMMENT_FIELDS)) if (record[key] !== undefined) out[key] = record[key];
  if (value.replies !== undefined) {
    const replies = parseCommentList(value.replies);
    if (replies === undefined) return undefined;
    out.replies = replies;
  }
  return out as unknown as Comment;
}

/** commentListSchema without zod: the list, or undefined when any item (or reply) is not a comment. */
export function parseCommentList(value: unknown): Comment[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const list = value.map(parseComment);
  return list.every((c): c is Comment => c !== undefined) ? list : undefined;
}

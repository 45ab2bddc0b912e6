import type { Post, PostStatus } from '@district/contracts/content';
import {
  isNullableString,
  isString,
  isStringArray,
  isUuid,
  matchShape,
  oneOf,
  pickShape,
  type FieldChecks,
} from '@/lib/shape-guard';

const STATUSES: Record<PostStatus, true> = { draft: true, published: true };
const isNullableUuid = (v: unknown) => v === null || isUuid(v);

const POST_FIELDS: FieldChecks<Post> = {
  id: isUuid,
  slug: isString,
  title: isString,
  content: isString,
  excerpt: isString,
  categoryId: isNullableUuid,
  categoryName: isNullableString,
  category: isNullableString,
  status: oneOf(STATUSES),
  featuredImage: isNullableString,
  tags: isStringArray,
  authorId: isUuid,
  authorName: isString,
  publishedAt: isNullableString,
  createdAt: isString,
  updatedAt: isString,
  metaDescription: isString,
  metaKeywords: isStringArray,
  seoTitle: isString,
  focusKeyword: isString,
  readTime: (v) => typeof v === 'number' && Number.isInteger(v) && v >= 1,
};

/** The contract's postSchema without zod (src/lib/shape-guard.ts), for the lessons embedded in the first HTML. */
export function parsePost(value: unknown): Post | undefined {
  return matchShape(value, POST_FIELDS) ? pickShape(value, POST_FIELDS) : undefined;
}

/** A list of posts, or undefined when any item is not one. */
export function parsePostList(value: unknown): Post[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const posts = value.map(parsePost);
  return posts.every((p): p is Post => p !== undefined) ? posts : undefined;
}

/**
 * The content contract's zod schemas, loaded with the first request that needs one (the API client starts the
 * import alongside the request). zod is about 24 KB gzipped; the blog's pages paint from the first HTML's data
 * and zod-free guards, so it stays out of their first paint (ADR 0023).
 */
const contract = () => import('./content-contract');

export const contentSchemas = {
  postList: () => contract().then((m) => m.postListSchema),
  post: () => contract().then((m) => m.postSchema),
  categoryList: () => contract().then((m) => m.categoryListSchema),
  category: () => contract().then((m) => m.categorySchema),
  commentList: () => contract().then((m) => m.commentListSchema),
  comment: () => contract().then((m) => m.commentSchema),
} as const;

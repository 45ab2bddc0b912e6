// The content contract's schemas, in a module of their own that only ./content-schemas.ts imports, and only
// dynamically: zod and the schemas become one chunk loaded with the first request that needs them (ADR 0023).
export {
  categoryListSchema,
  categorySchema,
  commentListSchema,
  commentSchema,
  postListSchema,
  postSchema,
} from '@district/contracts/content';

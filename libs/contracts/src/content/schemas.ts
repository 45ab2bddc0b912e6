import { z } from 'zod';
import {
  COMMENT_MAX_LENGTH,
  ContentMessages,
  POST_CONTENT_MAX_LENGTH,
  POST_TITLE_MAX,
  PUBLIC_POSTS_DEFAULT_LIMIT,
  PUBLIC_POSTS_MAX_LIMIT,
} from './messages';

export const postStatusSchema = z.enum(['draft', 'published']);
export type PostStatus = z.infer<typeof postStatusSchema>;
export const commentStatusSchema = z.enum(['pending', 'approved']);
export type CommentStatus = z.infer<typeof commentStatusSchema>;

const id = z.string().uuid();

/** Spec §3 Post, as every client sees it. `category` repeats `categoryName` (the spec names both). */
export const postSchema = z.object({
  id,
  slug: z.string(),
  title: z.string(),
  content: z.string(),
  excerpt: z.string(),
  categoryId: id.nullable(),
  categoryName: z.string().nullable(),
  category: z.string().nullable(),
  status: postStatusSchema,
  featuredImage: z.string().nullable(),
  tags: z.array(z.string()),
  authorId: id,
  authorName: z.string(),
  publishedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  metaDescription: z.string(),
  metaKeywords: z.array(z.string()),
  seoTitle: z.string(),
  focusKeyword: z.string(),
  /** Minutes, spec §9. */
  readTime: z.number().int().min(1),
});
export type Post = z.infer<typeof postSchema>;
export const postListSchema = z.array(postSchema);

/** Spec §5: comma-separated input, trimmed, empties dropped; a list is accepted as well. */
export const keywordListSchema = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((k) => k.trim()).filter(Boolean))
  .pipe(
    z.array(z.string().max(60, 'Each keyword must be at most 60 characters')).max(30, 'At most 30 keywords'),
  );

/** A featured image is one of ours (/uploads/…) or an absolute http(s) URL; never javascript: or data:. */
const imageUrlSchema = z
  .string()
  .trim()
  .max(2048)
  .refine(
    (v) => v === '' || /^\/uploads\/[0-9a-f]{64}\.[a-z]+$/.test(v) || /^https?:\/\/[^\s]+$/i.test(v),
    'Featured image must be an uploaded image or an http(s) URL',
  )
  .transform((v) => (v === '' ? null : v));

const postFields = {
  title: z
    .string({ error: ContentMessages.enterTitle })
    .trim()
    .min(1, ContentMessages.enterTitle)
    .max(POST_TITLE_MAX, `Title must be at most ${POST_TITLE_MAX} characters`),
  /** Editable; made from the title when absent or blank. */
  slug: z.string().trim().max(120).optional(),
  content: z.string().max(POST_CONTENT_MAX_LENGTH, 'Content is too long').optional(),
  excerpt: z.string().max(1000, 'Excerpt must be at most 1000 characters').optional(),
  categoryId: z
    .union([id, z.literal(''), z.null()])
    .optional()
    .transform((v) => (v === '' ? null : v)),
  tags: z.array(z.string().trim().min(1).max(50)).max(20, 'At most 20 tags').optional(),
  featuredImage: z.union([imageUrlSchema, z.null()]).optional(),
  status: postStatusSchema.optional(),
  metaDescription: z.string().max(500).optional(),
  metaKeywords: keywordListSchema.optional(),
  seoTitle: z.string().max(200).optional(),
  focusKeyword: z.string().max(100).optional(),
  /** Sent by the spec's editor; the author is whoever created the post, so these are ignored. */
  authorId: z.unknown().optional(),
  authorName: z.unknown().optional(),
};

/** POST /api/posts. New posts are drafts unless a status is given. */
export const createPostRequestSchema = z.object(postFields);
export type CreatePostRequest = z.input<typeof createPostRequestSchema>;
/** PUT /api/posts/{id}: the fields sent are changed (inline edit sends only title and content). */
export const updatePostRequestSchema = z.object(postFields).partial();
export type UpdatePostRequest = z.input<typeof updatePostRequestSchema>;
export const postStatusRequestSchema = z.object({ status: postStatusSchema });

/** GET /api/posts/public query: search, category (id or slug), pagination. Total in X-Total-Count. */
export const publicPostsQuerySchema = z.object({
  q: z.string().trim().max(200).optional(),
  category: z.string().trim().max(120).optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(PUBLIC_POSTS_MAX_LIMIT, `limit must be at most ${PUBLIC_POSTS_MAX_LIMIT}`)
    .default(PUBLIC_POSTS_DEFAULT_LIMIT),
  page: z.coerce
    .number({ error: 'page must be a number' })
    .int('page must be a whole number')
    .min(1, 'page must be at least 1')
    .max(100_000)
    .default(1),
});
export type PublicPostsQuery = z.infer<typeof publicPostsQuerySchema>;

export const categorySchema = z.object({
  id,
  name: z.string(),
  slug: z.string(),
  description: z.string(),
  postCount: z.number().int(),
  createdAt: z.string(),
});
export type Category = z.infer<typeof categorySchema>;
export const categoryListSchema = z.array(categorySchema);

export const categoryRequestSchema = z.object({
  name: z
    .string({ error: ContentMessages.categoryNameRequired })
    .trim()
    .min(1, ContentMessages.categoryNameRequired)
    .max(100, 'Category name must be at most 100 characters'),
  slug: z.string().trim().max(120).optional(),
  description: z.string().trim().max(1000, 'Description must be at most 1000 characters').optional(),
});
export type CategoryRequest = z.input<typeof categoryRequestSchema>;

/**
 * Spec §3 Comment. `own` marks the caller's own comments (so the client can label its pending ones). `authorId`
 * is sent to admins only: public lists must not tie a pupil's comments together by their user id.
 */
export interface Comment {
  id: string;
  postId: string;
  content: string;
  authorId?: string | null;
  authorName: string;
  createdAt: string;
  parentId: string | null;
  status: CommentStatus;
  own?: boolean;
  postTitle?: string;
  replies?: Comment[];
}
export const commentSchema: z.ZodType<Comment> = z.lazy(() =>
  z.object({
    id,
    postId: id,
    content: z.string(),
    authorId: id.nullable().optional(),
    authorName: z.string(),
    createdAt: z.string(),
    parentId: id.nullable(),
    status: commentStatusSchema,
    own: z.boolean().optional(),
    postTitle: z.string().optional(),
    replies: z.array(commentSchema).optional(),
  }),
);
export const commentListSchema = z.array(commentSchema);

/** POST /api/posts/{postId}/comments. `status` is honoured from admins only (spec §4 has clients send it). */
export const createCommentRequestSchema = z.object({
  content: z
    .string({ error: ContentMessages.commentEmpty })
    .max(COMMENT_MAX_LENGTH, `Comment must be at most ${COMMENT_MAX_LENGTH} characters`)
    .refine((v) => v.trim().length > 0, ContentMessages.commentEmpty),
  parentId: z.union([id, z.null()]).optional(),
  status: commentStatusSchema.optional(),
});
export type CreateCommentRequest = z.input<typeof createCommentRequestSchema>;
export const commentStatusRequestSchema = z.object({ status: commentStatusSchema });

/** Spec §3 SEO settings, plus the site's comment moderation switch (kept with the other site settings). */
export const seoSettingsSchema = z.object({
  siteName: z.string().trim().min(1, 'Please enter a site name').max(120),
  siteDescription: z.string().trim().max(500),
  defaultMetaKeywords: keywordListSchema,
  googleAnalyticsId: z
    .string()
    .trim()
    .max(40)
    .regex(/^[A-Za-z0-9-]*$/, 'Google Analytics ID may contain only letters, digits and hyphens'),
  googleSearchConsoleId: z
    .string()
    .trim()
    .max(200)
    .regex(
      /^[A-Za-z0-9_-]*$/,
      'Google Search Console ID may contain only letters, digits, hyphens and underscores',
    ),
  robotsTxt: z.string().max(10_000),
  sitemapEnabled: z.boolean(),
  /** Students' comments wait for approval while this is on (the default). */
  commentModeration: z.boolean(),
});
export type SeoSettings = z.infer<typeof seoSettingsSchema>;
/** POST /api/seo/settings: the fields sent replace the stored ones. */
export const seoSettingsRequestSchema = seoSettingsSchema.partial();

export const DEFAULT_SEO_SETTINGS: SeoSettings = {
  siteName: 'District Learning',
  siteDescription: 'Educational tools and interactive learning experiences.',
  defaultMetaKeywords: ['education', 'spanish', 'lessons', 'teaching'],
  googleAnalyticsId: '',
  googleSearchConsoleId: '',
  robotsTxt: '',
  sitemapEnabled: true,
  commentModeration: true,
};

export const uploadImageResponseSchema = z.object({ url: z.string() });
export const sitemapGenerateResponseSchema = z.object({
  url: z.string(),
  urlCount: z.number().int(),
  generatedAt: z.string(),
});

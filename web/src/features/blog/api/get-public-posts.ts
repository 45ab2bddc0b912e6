import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { listRefreshOptions } from '@/lib/react-query';

/**
 * A public post as the home page reads it (spec section 3). Lenient on purpose: optional fields may be
 * null or absent, and extra fields are ignored, so a content-service addition never blanks the page.
 */
export const publicPostSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  slug: z.string().nullish(),
  title: z.string(),
  content: z.string().nullish(),
  excerpt: z.string().nullish(),
  categoryName: z.string().nullish(),
  category: z.union([z.string(), z.object({ name: z.string() }).loose()]).nullish(),
  featuredImage: z.string().nullish(),
  tags: z.array(z.string()).nullish(),
  authorName: z.string().nullish(),
  publishedAt: z.string().nullish(),
  createdAt: z.string().nullish(),
});
export type PublicPost = z.infer<typeof publicPostSchema>;

/** The list may come bare or wrapped (`{ posts }` / `{ items }`), depending on pagination. */
const publicPostsResponseSchema = z.union([
  z.array(publicPostSchema),
  z.object({ posts: z.array(publicPostSchema) }).transform((r) => r.posts),
  z.object({ items: z.array(publicPostSchema) }).transform((r) => r.items),
]);

export const publicPostsQueryKey = ['posts', 'public'] as const;

export function getPublicPosts(signal?: AbortSignal): Promise<PublicPost[]> {
  return api.get('/api/posts/public', { schema: publicPostsResponseSchema, signal });
}

export function usePublicPosts() {
  return useQuery({
    ...listRefreshOptions,
    queryKey: publicPostsQueryKey,
    queryFn: ({ signal }) => getPublicPosts(signal),
  });
}

export function postCategory(post: PublicPost): string | null {
  if (post.categoryName) return post.categoryName;
  if (typeof post.category === 'string') return post.category;
  return post.category?.name ?? null;
}

export function postDate(post: PublicPost): string | null {
  return post.publishedAt ?? post.createdAt ?? null;
}

/** Newest first, at most `limit` (the server's order is not promised by the spec). */
export function latestPosts(posts: PublicPost[], limit: number): PublicPost[] {
  const time = (p: PublicPost) => {
    const t = Date.parse(postDate(p) ?? '');
    return Number.isNaN(t) ? 0 : t;
  };
  return [...posts].sort((a, b) => time(b) - time(a)).slice(0, limit);
}

import type { QueryClient } from '@tanstack/react-query';
import type { Post } from '@district/contracts/content';
import { HOME_POSTS_LIMIT } from '@/config/constants';
import { BLOG_PAGE_SIZE } from '../blog.constants';
import { parsePost, parsePostList } from './post-guard';
import { publicPostQueryKey, publicPostsQueryKey, type PostListParams, type PostPage } from './public-posts';

/**
 * The first screen's data the gateway embeds in the first HTML of home, `/blog` and `/blog/{slug}` (issue #15,
 * ADR 0023): the public answers a signed-out visitor would fetch, written by content's page plug-in
 * (services/content/src/pages/lesson-pages.ts) into `<script type="application/json" id="initial-data">`. The app
 * puts them in its query cache before the first render, so those pages paint lessons without fetching them.
 */
export const INITIAL_DATA_ELEMENT_ID = 'initial-data';

/** The query key of the lesson list's first page, unfiltered (as BlogListPage asks for it). */
export function firstBlogPageKey(limit: number) {
  const params: PostListParams = { q: '', category: '', page: 1, limit };
  return [...publicPostsQueryKey, 'page', params] as const;
}

type Embedded =
  | { page: 'home'; posts: Post[] }
  | { page: 'blog'; page1: PostPage }
  | { page: 'post'; slug: string; post: Post };

const allPublished = (posts: Post[]) => posts.every((p) => p.status === 'published');

/** Every field is checked again: anything unexpected (another limit, a bad post) is ignored and the page fetches. */
function parseEmbedded(value: unknown): Embedded | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (v.page === 'home' && v.limit === HOME_POSTS_LIMIT) {
    const posts = parsePostList(v.posts);
    return posts && allPublished(posts) ? { page: 'home', posts } : undefined;
  }
  if (v.page === 'blog' && v.limit === BLOG_PAGE_SIZE && typeof v.page1 === 'object' && v.page1 !== null) {
    const page1 = v.page1 as Record<string, unknown>;
    const posts = parsePostList(page1.posts);
    const total = page1.total;
    if (
      !posts ||
      !allPublished(posts) ||
      typeof total !== 'number' ||
      !Number.isInteger(total) ||
      total < posts.length
    )
      return undefined;
    return { page: 'blog', page1: { posts, total } };
  }
  if (v.page === 'post' && typeof v.slug === 'string') {
    const post = parsePost(v.post);
    return post?.status === 'published' ? { page: 'post', slug: v.slug, post } : undefined;
  }
  return undefined;
}

/**
 * Reads the embedded data once (the element is removed, so nothing reads it twice) and seeds the query cache.
 * Returns what it seeded, for tests; never throws (a broken element only means the page fetches as before).
 */
export function seedInitialData(client: QueryClient, doc: Document = document): Embedded['page'] | undefined {
  const element = doc.getElementById(INITIAL_DATA_ELEMENT_ID);
  if (!element || element.getAttribute('type') !== 'application/json') return undefined;
  element.remove();
  let embedded: Embedded | undefined;
  try {
    embedded = parseEmbedded(JSON.parse(element.textContent ?? ''));
  } catch {
    return undefined;
  }
  if (!embedded) return undefined;
  if (embedded.page === 'home')
    client.setQueryData([...publicPostsQueryKey, 'latest', HOME_POSTS_LIMIT], embedded.posts);
  else if (embedded.page === 'blog') client.setQueryData(firstBlogPageKey(BLOG_PAGE_SIZE), embedded.page1);
  else client.setQueryData(publicPostQueryKey(embedded.slug), embedded.post);
  return embedded.page;
}

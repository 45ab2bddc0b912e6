import type { Category, Comment, Post } from '@district/contracts/content';

let seq = 0;
const uuid = (n: number, block = '0000') => `00000000-${block}-4000-8000-${String(n).padStart(12, '0')}`;
export const AUTHOR_ID = uuid(9999);

/** A post exactly as the content service answers it (contracts' postSchema); override what a test needs. */
export function makePost(overrides: Partial<Post> = {}): Post {
  seq += 1;
  const date = new Date(Date.UTC(2025, 0, 1 + (seq % 28))).toISOString();
  return {
    id: uuid(seq, '1111'),
    slug: `lesson-${seq}`,
    title: `Lesson ${seq}`,
    content: `<p>Body of lesson ${seq}</p>`,
    excerpt: `Excerpt ${seq}`,
    categoryId: null,
    categoryName: null,
    category: null,
    status: 'published',
    featuredImage: null,
    tags: [],
    authorId: AUTHOR_ID,
    authorName: 'Tia Teacher',
    publishedAt: date,
    createdAt: date,
    updatedAt: date,
    metaDescription: '',
    metaKeywords: [],
    seoTitle: '',
    focusKeyword: '',
    readTime: 1,
    ...overrides,
  };
}

export function makeCategory(overrides: Partial<Category> = {}): Category {
  seq += 1;
  return {
    id: uuid(seq, '2222'),
    name: `Category ${seq}`,
    slug: `category-${seq}`,
    description: '',
    postCount: 0,
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function makeComment(overrides: Partial<Comment> = {}): Comment {
  seq += 1;
  return {
    id: uuid(seq, '3333'),
    postId: uuid(1, '1111'),
    content: `<p>Comment ${seq}</p>`,
    authorId: uuid(seq, '4444'),
    authorName: `Reader ${seq}`,
    createdAt: new Date().toISOString(),
    parentId: null,
    status: 'approved',
    replies: [],
    ...overrides,
  };
}

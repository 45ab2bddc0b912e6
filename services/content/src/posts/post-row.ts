import type { Post, PostStatus } from '@district/contracts';

/** A posts row joined with its category's name, as the queries below select it. */
export interface PostRow {
  id: string;
  slug: string;
  title: string;
  content: string;
  excerpt: string;
  category_id: string | null;
  category_name: string | null;
  status: PostStatus;
  featured_image: string | null;
  tags: string[];
  author_id: string;
  author_name: string;
  published_at: Date | null;
  created_at: Date;
  updated_at: Date;
  meta_description: string;
  meta_keywords: string[];
  seo_title: string;
  focus_keyword: string;
  read_time: number;
}

export const POST_COLUMNS = `p.id, p.slug, p.title, p.content, p.excerpt, p.category_id, c.name AS category_name, p.status,
  p.featured_image, p.tags, p.author_id, p.author_name, p.published_at, p.created_at, p.updated_at,
  p.meta_description, p.meta_keywords, p.seo_title, p.focus_keyword, p.read_time`;

export const POST_FROM = `posts p LEFT JOIN categories c ON c.id = p.category_id`;

export function toPost(row: PostRow): Post {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    content: row.content,
    excerpt: row.excerpt,
    categoryId: row.category_id,
    categoryName: row.category_name,
    category: row.category_name,
    status: row.status,
    featuredImage: row.featured_image,
    tags: row.tags,
    authorId: row.author_id,
    authorName: row.author_name,
    publishedAt: row.published_at ? row.published_at.toISOString() : null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    metaDescription: row.meta_description,
    metaKeywords: row.meta_keywords,
    seoTitle: row.seo_title,
    focusKeyword: row.focus_keyword,
    readTime: row.read_time,
  };
}

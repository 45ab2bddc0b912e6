import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Post, PostStatus, PublicPostsQuery } from '@district/contracts';
import { UUID_PATTERN } from '@district/nest-common';
import { POST_COLUMNS, POST_FROM, toPost, type PostRow } from './post-row';
import { prefixTsQuery } from './post-text';

/** The unique constraint on slugs (migration 1732400000000): a lost race for a slug breaks it. */
export const POST_SLUG_KEY = 'posts_slug_key';
/** The first key of the advisory locks on slug bases (lockSlugBase): "post" in ASCII, apart from any other lock. */
const POST_SLUG_LOCK_SPACE = 0x706f7374;

/** A new post's columns, sanitised and derived by the service. */
export interface NewPost {
  slug: string;
  title: string;
  content: string;
  contentText: string;
  excerpt: string;
  categoryId: string | null;
  status: PostStatus;
  featuredImage: string | null;
  tags: string[];
  authorId: string;
  authorName: string;
  metaDescription: string;
  metaKeywords: string[];
  seoTitle: string;
  focusKeyword: string;
  readTime: number;
}

/** What an update may change; fields left undefined stay as they are. */
export type PostChanges = Partial<
  Pick<
    NewPost,
    | 'slug'
    | 'title'
    | 'content'
    | 'contentText'
    | 'readTime'
    | 'excerpt'
    | 'categoryId'
    | 'tags'
    | 'featuredImage'
    | 'metaDescription'
    | 'metaKeywords'
    | 'seoTitle'
    | 'focusKeyword'
    | 'status'
  >
>;

/** Column of each changeable field: the only names an UPDATE is built from. */
const CHANGE_COLUMNS: Record<keyof PostChanges, string> = {
  slug: 'slug',
  title: 'title',
  content: 'content',
  contentText: 'content_text',
  readTime: 'read_time',
  excerpt: 'excerpt',
  categoryId: 'category_id',
  tags: 'tags',
  featuredImage: 'featured_image',
  metaDescription: 'meta_description',
  metaKeywords: 'meta_keywords',
  seoTitle: 'seo_title',
  focusKeyword: 'focus_keyword',
  status: 'status',
};

/** A demo lesson as seeded: published, dated in the past, inserted only when its category exists. */
export type DemoPost = Pick<
  NewPost,
  | 'slug'
  | 'title'
  | 'content'
  | 'contentText'
  | 'excerpt'
  | 'tags'
  | 'authorId'
  | 'authorName'
  | 'readTime'
  | 'metaDescription'
  | 'metaKeywords'
  | 'seoTitle'
  | 'focusKeyword'
> & { id: string; categoryId: string; publishedAt: Date };

/**
 * The SQL of posts (each row joined with its category's name). `tx` runs a statement inside the caller's
 * transaction; without it, on the pool.
 */
@Injectable()
export class PostsRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /**
   * Published posts, newest first (id breaks ties, so pages never overlap), with the total matching, in one
   * statement: a round trip to PostgreSQL costs more CPU than either query (bench/reports/content.md). The
   * page's ids come first from the list-order indexes (index-only, however deep the page), then only those
   * rows are read whole. A page past the end still gives one row, without a post, carrying the total.
   */
  async listPublic(query: PublicPostsQuery): Promise<{ posts: Post[]; total: number }> {
    const where = [`p.status = 'published'`];
    const params: unknown[] = [];
    const tsQuery = query.q ? prefixTsQuery(query.q) : null;
    if (query.q && !tsQuery) return { posts: [], total: 0 };
    if (tsQuery) {
      params.push(tsQuery);
      where.push(`p.search @@ to_tsquery('simple', $${params.length})`);
    }
    if (query.category) {
      params.push(query.category);
      where.push(
        UUID_PATTERN.test(query.category)
          ? `p.category_id = $${params.length}::uuid`
          : `p.category_id = (SELECT id FROM categories WHERE slug = $${params.length})`,
      );
    }
    const filter = where.join(' AND ');
    const rows: (PostRow & { total: number })[] = await this.dataSource.query(
      `WITH matching AS (SELECT count(*)::int AS total FROM posts p WHERE ${filter}),
            page AS (
              SELECT p.id, p.published_at FROM posts p WHERE ${filter}
              ORDER BY p.published_at DESC, p.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}
            )
       SELECT matching.total, ${POST_COLUMNS}
       FROM matching
       LEFT JOIN (page JOIN posts p ON p.id = page.id LEFT JOIN categories c ON c.id = p.category_id) ON true
       ORDER BY page.published_at DESC, page.id DESC`,
      [...params, query.limit, (query.page - 1) * query.limit],
    );
    return { posts: rows.filter((row) => row.id !== null).map(toPost), total: rows[0]?.total ?? 0 };
  }

  /** A published post by slug or by id (`id`: the canonical UUID, or null when the text is not one). */
  async findPublished(slug: string, id: string | null): Promise<Post | null> {
    const rows: PostRow[] = await this.dataSource.query(
      `SELECT ${POST_COLUMNS} FROM ${POST_FROM}
       WHERE p.status = 'published' AND (p.slug = $1 OR p.id = $2::uuid) LIMIT 1`,
      [slug, id],
    );
    return rows[0] ? toPost(rows[0]) : null;
  }

  /** Every post, newest first. */
  async listAll(): Promise<Post[]> {
    const rows: PostRow[] = await this.dataSource.query(
      `SELECT ${POST_COLUMNS} FROM ${POST_FROM} ORDER BY p.created_at DESC, p.id DESC`,
    );
    return rows.map(toPost);
  }

  async find(id: string, tx?: EntityManager): Promise<Post | null> {
    if (!UUID_PATTERN.test(id)) return null;
    const rows: PostRow[] = await this.db(tx).query(
      `SELECT ${POST_COLUMNS} FROM ${POST_FROM} WHERE p.id = $1`,
      [id],
    );
    return rows[0] ? toPost(rows[0]) : null;
  }

  /** Takes the post's row lock for the rest of the transaction; false when there is no such post. */
  async lock(tx: EntityManager, id: string): Promise<boolean> {
    const locked: unknown[] = await tx.query(`SELECT 1 FROM posts WHERE id = $1 FOR UPDATE`, [id]);
    return locked.length > 0;
  }

  /**
   * Serialises, until the transaction ends, every creation whose slug comes from the same base: the next one
   * waits, then its slug query sees the first one's committed row. Without it, many posts created at once with
   * one title all chose the same free slug and all but one failed, past the retries, with a 500 (found by the
   * route fuzzer). A transaction-scoped advisory lock under this table's own key space, so no row is locked.
   */
  async lockSlugBase(tx: EntityManager, base: string): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(${POST_SLUG_LOCK_SPACE}, hashtext($1))`, [base]);
  }

  /** The slugs `base` and `base-…` that posts already have. */
  async slugsLike(tx: EntityManager, base: string): Promise<Set<string>> {
    const rows: { slug: string }[] = await tx.query(
      `SELECT slug FROM posts WHERE slug = $1 OR slug LIKE $2`,
      [base, `${base.replace(/[\\%_]/g, '\\$&')}-%`],
    );
    return new Set(rows.map((r) => r.slug));
  }

  async contentText(tx: EntityManager, id: string): Promise<string> {
    const rows: { content_text: string }[] = await tx.query(`SELECT content_text FROM posts WHERE id = $1`, [
      id,
    ]);
    return rows[0]?.content_text ?? '';
  }

  /** Inserts the post (published now when its status says so) and answers its id. */
  async insert(tx: EntityManager, post: NewPost): Promise<string> {
    const rows: { id: string }[] = await tx.query(
      `INSERT INTO posts (slug, title, content, content_text, excerpt, category_id, status, featured_image, tags,
         author_id, author_name, published_at, meta_description, meta_keywords, seo_title, focus_keyword, read_time)
       VALUES ($1, $2, $3, $4, $5, $6, $7::varchar, $8, $9, $10, $11, CASE WHEN $7::varchar = 'published' THEN now() END,
         $12, $13, $14, $15, $16)
       RETURNING id`,
      [
        post.slug,
        post.title,
        post.content,
        post.contentText,
        post.excerpt,
        post.categoryId,
        post.status,
        post.featuredImage,
        post.tags,
        post.authorId,
        post.authorName,
        post.metaDescription,
        post.metaKeywords,
        post.seoTitle,
        post.focusKeyword,
        post.readTime,
      ],
    );
    return rows[0].id;
  }

  /**
   * Sets the fields given (and `updated_at`); false, without a statement, when none is. The first publication
   * date stays: unpublishing and publishing again does not make a lesson "new".
   */
  async update(tx: EntityManager, id: string, changes: PostChanges): Promise<boolean> {
    const sets: string[] = [];
    const params: unknown[] = [];
    for (const [field, column] of Object.entries(CHANGE_COLUMNS) as [keyof PostChanges, string][]) {
      if (changes[field] === undefined) continue;
      params.push(changes[field]);
      sets.push(`${column} = $${params.length}`);
    }
    if (changes.status === 'published') sets.push('published_at = coalesce(published_at, now())');
    if (sets.length === 0) return false;
    params.push(id);
    await tx.query(
      `UPDATE posts SET ${sets.join(', ')}, updated_at = now() WHERE id = $${params.length}`,
      params,
    );
    return true;
  }

  /** Deletes the post; its comments go with it (foreign key cascade). */
  async delete(tx: EntityManager, id: string): Promise<void> {
    await tx.query(`DELETE FROM posts WHERE id = $1`, [id]);
  }

  /** Whether comments on the post may be read or written: published, or any post when `drafts` (admins). */
  async isOpen(postId: string, drafts: boolean, tx?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await this.db(tx).query(
      `SELECT 1 FROM posts WHERE id = $1 AND (status = 'published' OR $2::boolean)`,
      [postId, drafts],
    );
    return rows.length > 0;
  }

  /** Slugs and last changes of the newest published posts, for the sitemap. */
  publishedSlugs(limit: number, tx?: EntityManager): Promise<{ slug: string; updated_at: Date }[]> {
    return this.db(tx).query(
      `SELECT slug, updated_at FROM posts WHERE status = 'published' ORDER BY published_at DESC, id DESC LIMIT $1`,
      [limit],
    );
  }

  /** The newest published posts as a feed lists them. */
  latestPublished(limit: number): Promise<
    {
      slug: string;
      title: string;
      excerpt: string;
      author_name: string;
      published_at: Date;
      category_name: string | null;
    }[]
  > {
    return this.dataSource.query(
      `SELECT p.slug, p.title, p.excerpt, p.author_name, p.published_at, c.name AS category_name
         FROM posts p LEFT JOIN categories c ON c.id = p.category_id
         WHERE p.status = 'published' ORDER BY p.published_at DESC, p.id DESC LIMIT $1`,
      [limit],
    );
  }

  /** Inserts a demo lesson unless its id or slug exists or its category does not; true when inserted. */
  async insertDemo(tx: EntityManager, post: DemoPost): Promise<boolean> {
    const rows: { id: string }[] = await tx.query(
      `INSERT INTO posts (id, slug, title, content, content_text, excerpt, category_id, status, tags, author_id,
         author_name, published_at, created_at, updated_at, read_time, meta_description, meta_keywords, seo_title,
         focus_keyword)
       SELECT $1, $2, $3, $4, $5, $6, $7, 'published', $8, $9, $10, $11, $11, $11, $12, $13, $14, $15, $16
       WHERE EXISTS (SELECT 1 FROM categories WHERE id = $7)
       ON CONFLICT DO NOTHING RETURNING id`,
      [
        post.id,
        post.slug,
        post.title,
        post.content,
        post.contentText,
        post.excerpt,
        post.categoryId,
        post.tags,
        post.authorId,
        post.authorName,
        post.publishedAt,
        post.readTime,
        post.metaDescription,
        post.metaKeywords,
        post.seoTitle,
        post.focusKeyword,
      ],
    );
    return rows.length > 0;
  }

  private db(tx: EntityManager | undefined): EntityManager {
    return tx ?? this.dataSource.manager;
  }
}

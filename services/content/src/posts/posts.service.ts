import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  ContentMessages,
  Subjects,
  slugCandidate,
  slugify,
  type Post,
  type PostDeletedEvent,
  type PostPublishedEvent,
  type PostStatus,
  type PostUnpublishedEvent,
  type PublicPostsQuery,
} from '@district/contracts';
import {
  OutboxRelay,
  OutboxService,
  PLATFORM_LOGGER,
  PLATFORM_RUNTIME,
  type AuthUser,
  type Logger,
  type PlatformRuntime,
  canonicalUuid,
} from '@district/nest-common';
import {
  CategoryNotFoundError,
  InvalidInputError,
  PostNotFoundError,
  SlugTakenError,
} from '../content.errors';
import { eventHeaders } from '../event-headers';
import { htmlToText, sanitizePostHtml } from '../html/html-sanitizer';
import { UUID, violatedUniqueConstraint } from '../unique-violation';
import { POST_COLUMNS, POST_FROM, toPost, type PostRow } from './post-row';
import { excerptFromText, prefixTsQuery, readTimeOf } from './post-text';
import { PublicListCache, type RenderedPage } from './public-list-cache';
import { renderPage } from './public-list-http';
import { PublicListListener } from './public-list-listener';

/** Fields of a create or update, already validated by the contracts schema. */
export interface PostInput {
  title?: string;
  slug?: string;
  content?: string;
  excerpt?: string;
  categoryId?: string | null;
  tags?: string[];
  featuredImage?: string | null;
  status?: PostStatus;
  metaDescription?: string;
  metaKeywords?: string[];
  seoTitle?: string;
  focusKeyword?: string;
}

const SLUG_ATTEMPTS = 50;
const INSERT_RETRIES = 3;

/**
 * Posts (spec §3, §4). Content is sanitised here, on the way in, so every reader gets safe HTML; read time,
 * plain text for search, slug and excerpt are derived here too. Publishing, unpublishing and deleting
 * enqueue their event in the same transaction as the change.
 */
@Injectable()
export class PostsService implements OnApplicationBootstrap, OnApplicationShutdown {
  /** Rendered pages of the public list; see public-list-cache.ts for why they cannot go stale. */
  readonly publicPages = new PublicListCache();
  private readonly listener: PublicListListener;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(OutboxService) private readonly outbox: OutboxService,
    @Inject(OutboxRelay) private readonly relay: OutboxRelay,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
    @Inject(PLATFORM_RUNTIME) runtime: PlatformRuntime,
  ) {
    this.listener = new PublicListListener({
      databaseUrl: runtime.databaseUrl,
      // The schema the platform put this service in (tests: a throwaway one), as the triggers see it.
      schema: (dataSource.options as { schema?: string }).schema ?? 'public',
      onChange: () => this.publicPages.invalidate(),
      onHearing: (hearing) => this.publicPages.setHearing(hearing),
      logger,
    });
  }

  onApplicationBootstrap(): Promise<void> {
    return this.listener.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.listener.stop();
  }

  /**
   * A page of the public list, rendered: from memory when this replica has it and nothing changed since
   * (every replica hears every committed change of posts and categories through PostgreSQL notifications),
   * otherwise from the database. `fresh` (a client bypassing caches) always reads the database.
   */
  publicPage(query: PublicPostsQuery, options: { fresh: boolean }): Promise<RenderedPage> {
    const key = PublicListCache.key(query);
    const build = async () => {
      const { posts, total } = await this.listPublic(query);
      return renderPage(posts, total);
    };
    return options.fresh ? this.publicPages.refresh(key, build) : this.publicPages.load(key, build);
  }

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
        UUID.test(query.category)
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

  /** A published post by slug or id; drafts are not found. */
  async findPublic(slugOrId: string): Promise<Post> {
    const rows: PostRow[] = await this.dataSource.query(
      `SELECT ${POST_COLUMNS} FROM ${POST_FROM}
       WHERE p.status = 'published' AND (p.slug = $1 OR p.id = $2::uuid) LIMIT 1`,
      [slugOrId, canonicalUuid(slugOrId) ?? null],
    );
    if (!rows[0]) throw new PostNotFoundError();
    return toPost(rows[0]);
  }

  /** Every post, newest first (admin list). */
  async listAll(): Promise<Post[]> {
    const rows: PostRow[] = await this.dataSource.query(
      `SELECT ${POST_COLUMNS} FROM ${POST_FROM} ORDER BY p.created_at DESC, p.id DESC`,
    );
    return rows.map(toPost);
  }

  /** One post by id; drafts only for admins. */
  async findById(id: string, viewer: AuthUser | undefined): Promise<Post> {
    const post = await this.find(this.dataSource.manager, id);
    if (!post || (post.status !== 'published' && !viewer?.isAdmin)) throw new PostNotFoundError();
    return post;
  }

  async create(author: AuthUser, input: PostInput & { title: string }): Promise<Post> {
    const base = slugify(input.slug || input.title) || 'post';
    for (let attempt = 0; ; attempt++) {
      try {
        const post = await this.dataSource.transaction(async (manager) => {
          if (input.categoryId) await this.assertCategory(manager, input.categoryId);
          const slug = await this.freeSlug(manager, base);
          const status = input.status ?? 'draft';
          const content = sanitizePostHtml(input.content ?? '');
          const text = htmlToText(content);
          const rows: { id: string }[] = await manager.query(
            `INSERT INTO posts (slug, title, content, content_text, excerpt, category_id, status, featured_image, tags,
               author_id, author_name, published_at, meta_description, meta_keywords, seo_title, focus_keyword, read_time)
             VALUES ($1, $2, $3, $4, $5, $6, $7::varchar, $8, $9, $10, $11, CASE WHEN $7::varchar = 'published' THEN now() END,
               $12, $13, $14, $15, $16)
             RETURNING id`,
            [
              slug,
              input.title,
              content,
              text,
              this.excerpt(input.excerpt, text),
              input.categoryId ?? null,
              status,
              input.featuredImage ?? null,
              input.tags ?? [],
              author.id,
              author.name,
              input.metaDescription ?? '',
              input.metaKeywords ?? [],
              input.seoTitle ?? '',
              input.focusKeyword ?? '',
              readTimeOf(text),
            ],
          );
          const created = await this.mustFind(manager, rows[0].id);
          if (created.status === 'published') await this.enqueuePublished(manager, created);
          return created;
        });
        this.changedPublicList();
        this.relay.nudge();
        this.logger.info({ postId: post.id, status: post.status }, 'post created');
        return post;
      } catch (error) {
        // Another post took the slug between the check and the insert: pick again.
        if (violatedUniqueConstraint(error) === 'posts_slug_key' && attempt < INSERT_RETRIES) continue;
        throw error;
      }
    }
  }

  /** Changes the fields sent. The slug stays as it is unless one is sent, so links keep working. */
  async update(id: string, input: PostInput): Promise<Post> {
    try {
      const post = await this.underLock(id, async (manager, before) => {
        if (input.categoryId) await this.assertCategory(manager, input.categoryId);
        const sets: string[] = [];
        const params: unknown[] = [];
        const set = (column: string, value: unknown) => {
          params.push(value);
          sets.push(`${column} = $${params.length}`);
        };
        if (input.title !== undefined) set('title', input.title);
        if (input.slug !== undefined && input.slug.trim() !== '') {
          const slug = slugify(input.slug);
          if (!slug) throw new InvalidInputError('Slug must contain letters or digits');
          if (slug !== before.slug) set('slug', slug);
        }
        let text: string | undefined;
        if (input.content !== undefined) {
          const content = sanitizePostHtml(input.content);
          text = htmlToText(content);
          set('content', content);
          set('content_text', text);
          set('read_time', readTimeOf(text));
        }
        // An excerpt left blank is made from the text; one never sent stays as it is.
        if (input.excerpt !== undefined)
          set('excerpt', this.excerpt(input.excerpt, text ?? (await this.contentText(manager, id))));
        if (input.categoryId !== undefined) set('category_id', input.categoryId);
        if (input.tags !== undefined) set('tags', input.tags);
        if (input.featuredImage !== undefined) set('featured_image', input.featuredImage);
        if (input.metaDescription !== undefined) set('meta_description', input.metaDescription);
        if (input.metaKeywords !== undefined) set('meta_keywords', input.metaKeywords);
        if (input.seoTitle !== undefined) set('seo_title', input.seoTitle);
        if (input.focusKeyword !== undefined) set('focus_keyword', input.focusKeyword);
        if (input.status !== undefined) this.statusColumns(input.status, set, sets);
        if (sets.length === 0) return before;
        params.push(id);
        await manager.query(
          `UPDATE posts SET ${sets.join(', ')}, updated_at = now() WHERE id = $${params.length}`,
          params,
        );
        const after = await this.mustFind(manager, id);
        await this.enqueueStatusEvents(manager, before, after);
        return after;
      });
      this.changedPublicList();
      this.relay.nudge();
      return post;
    } catch (error) {
      if (violatedUniqueConstraint(error) === 'posts_slug_key')
        throw new SlugTakenError(ContentMessages.postSlugTaken);
      throw error;
    }
  }

  async setStatus(id: string, status: PostStatus): Promise<Post> {
    const post = await this.underLock(id, async (manager, before) => {
      if (before.status === status) return before;
      const sets: string[] = [];
      const params: unknown[] = [];
      this.statusColumns(
        status,
        (column, value) => {
          params.push(value);
          sets.push(`${column} = $${params.length}`);
        },
        sets,
      );
      params.push(id);
      await manager.query(
        `UPDATE posts SET ${sets.join(', ')}, updated_at = now() WHERE id = $${params.length}`,
        params,
      );
      const after = await this.mustFind(manager, id);
      await this.enqueueStatusEvents(manager, before, after);
      return after;
    });
    this.changedPublicList();
    this.relay.nudge();
    this.logger.info({ postId: id, status }, 'post status changed');
    return post;
  }

  /** Deletes the post and its comments. */
  async remove(id: string): Promise<void> {
    await this.underLock(id, async (manager) => {
      await manager.query(`DELETE FROM posts WHERE id = $1`, [id]);
      await this.outbox.enqueue(
        manager,
        Subjects.contentPostDeleted,
        { postId: id } satisfies PostDeletedEvent,
        eventHeaders(),
      );
    });
    this.changedPublicList();
    this.relay.nudge();
    this.logger.info({ postId: id }, 'post deleted');
  }

  /**
   * After a committed write, before its answer leaves: this replica's pages are forgotten at once, so whoever
   * made the change sees it on their next read. Other replicas (and this one again) hear the commit's
   * notification a moment later.
   */
  private changedPublicList(): void {
    this.publicPages.invalidate();
  }

  private statusColumns(
    status: PostStatus,
    set: (column: string, value: unknown) => void,
    sets: string[],
  ): void {
    set('status', status);
    // The first publication date stays: unpublishing and publishing again does not make a lesson "new".
    if (status === 'published') sets.push('published_at = coalesce(published_at, now())');
  }

  private async enqueueStatusEvents(manager: EntityManager, before: Post, after: Post): Promise<void> {
    if (after.status === 'published') await this.enqueuePublished(manager, after);
    else if (before.status === 'published')
      await this.outbox.enqueue(
        manager,
        Subjects.contentPostUnpublished,
        { postId: after.id, slug: after.slug } satisfies PostUnpublishedEvent,
        eventHeaders(),
      );
  }

  private async enqueuePublished(manager: EntityManager, post: Post): Promise<void> {
    const event: PostPublishedEvent = {
      post: {
        id: post.id,
        slug: post.slug,
        title: post.title,
        authorId: post.authorId,
        categoryId: post.categoryId,
        publishedAt: post.publishedAt ?? new Date().toISOString(),
      },
    };
    await this.outbox.enqueue(manager, Subjects.contentPostPublished, event, eventHeaders());
  }

  private excerpt(given: string | undefined, text: string): string {
    const own = given === undefined ? '' : htmlToText(given);
    return own || excerptFromText(text);
  }

  /** The first of base, base-2, base-3… that no post has. */
  private async freeSlug(manager: EntityManager, base: string): Promise<string> {
    const rows: { slug: string }[] = await manager.query(
      `SELECT slug FROM posts WHERE slug = $1 OR slug LIKE $2`,
      [base, `${base.replace(/[\\%_]/g, '\\$&')}-%`],
    );
    const taken = new Set(rows.map((r) => r.slug));
    for (let attempt = 0; attempt < SLUG_ATTEMPTS; attempt++) {
      const candidate = slugCandidate(base, attempt);
      if (!taken.has(candidate)) return candidate;
    }
    return `${base}-${Date.now().toString(36)}`;
  }

  private async assertCategory(manager: EntityManager, categoryId: string): Promise<void> {
    const rows: unknown[] = await manager.query(`SELECT 1 FROM categories WHERE id = $1`, [categoryId]);
    if (rows.length === 0) throw new CategoryNotFoundError();
  }

  private async contentText(manager: EntityManager, id: string): Promise<string> {
    const rows: { content_text: string }[] = await manager.query(
      `SELECT content_text FROM posts WHERE id = $1`,
      [id],
    );
    return rows[0]?.content_text ?? '';
  }

  private async find(manager: EntityManager, id: string): Promise<Post | null> {
    if (!UUID.test(id)) return null;
    const rows: PostRow[] = await manager.query(`SELECT ${POST_COLUMNS} FROM ${POST_FROM} WHERE p.id = $1`, [
      id,
    ]);
    return rows[0] ? toPost(rows[0]) : null;
  }

  private async mustFind(manager: EntityManager, id: string): Promise<Post> {
    const post = await this.find(manager, id);
    if (!post) throw new PostNotFoundError();
    return post;
  }

  /** Runs `work` holding the post's row lock, so two status changes cannot both think they published it. */
  private underLock<T>(id: string, work: (manager: EntityManager, post: Post) => Promise<T>): Promise<T> {
    if (!UUID.test(id)) throw new PostNotFoundError();
    return this.dataSource.transaction(async (manager) => {
      const locked: unknown[] = await manager.query(`SELECT 1 FROM posts WHERE id = $1 FOR UPDATE`, [id]);
      if (locked.length === 0) throw new PostNotFoundError();
      return work(manager, await this.mustFind(manager, id));
    });
  }
}

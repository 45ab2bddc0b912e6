import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Subjects, type PostPublishedEvent } from '@district/contracts';
import {
  OutboxRelay,
  OutboxService,
  PLATFORM_LOGGER,
  PLATFORM_RUNTIME,
  type Logger,
  type PlatformRuntime,
} from '@district/nest-common';
import { htmlToText, sanitizeCommentHtml, sanitizePostHtml } from '../html/html-sanitizer';
import { excerptFromText, readTimeOf } from '../posts/post-text';
import { authorOf, DEMO_CATEGORIES, DEMO_COMMENTS, DEMO_POSTS } from './demo-content';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * On a demo site, the demo district's lessons: categories, published posts by the demo admin and teacher,
 * and a few comments. Rows with the same id (or slug) are left as they are, so restarts and racing
 * replicas are harmless, and an admin's edits to the demo lessons survive.
 */
@Injectable()
export class SeedService implements OnApplicationBootstrap {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(OutboxService) private readonly outbox: OutboxService,
    @Inject(OutboxRelay) private readonly relay: OutboxRelay,
    @Inject(PLATFORM_RUNTIME) private readonly runtime: PlatformRuntime,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.runtime.demo) await this.seedDemoContent();
  }

  async seedDemoContent(now = new Date()): Promise<number> {
    const created = await this.dataSource.transaction(async (manager) => {
      let count = 0;
      for (const c of DEMO_CATEGORIES) {
        await manager.query(
          `INSERT INTO categories (id, name, slug, description) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
          [c.id, c.name, c.slug, c.description],
        );
      }
      for (const p of DEMO_POSTS) {
        const content = sanitizePostHtml(p.content);
        const text = htmlToText(content);
        const author = authorOf(p.author);
        const publishedAt = new Date(now.getTime() - p.daysAgo * DAY_MS);
        const rows: { id: string }[] = await manager.query(
          `INSERT INTO posts (id, slug, title, content, content_text, excerpt, category_id, status, tags, author_id,
             author_name, published_at, created_at, updated_at, read_time)
           SELECT $1, $2, $3, $4, $5, $6, $7, 'published', $8, $9, $10, $11, $11, $11, $12
           WHERE EXISTS (SELECT 1 FROM categories WHERE id = $7)
           ON CONFLICT DO NOTHING RETURNING id`,
          [
            p.id,
            p.slug,
            p.title,
            content,
            text,
            excerptFromText(text),
            p.categoryId,
            p.tags,
            author.id,
            author.name,
            publishedAt,
            readTimeOf(text),
          ],
        );
        if (rows.length === 0) continue;
        count++;
        const event: PostPublishedEvent = {
          post: {
            id: p.id,
            slug: p.slug,
            title: p.title,
            authorId: author.id,
            categoryId: p.categoryId,
            publishedAt: publishedAt.toISOString(),
          },
        };
        await this.outbox.enqueue(manager, Subjects.contentPostPublished, event);
      }
      for (const [index, c] of DEMO_COMMENTS.entries()) {
        const author = authorOf(c.author);
        await manager.query(
          `INSERT INTO comments (id, post_id, parent_id, author_id, author_name, content, status, created_at)
           SELECT $1, $2, $3, $4, $5, $6, $7, $8
           WHERE EXISTS (SELECT 1 FROM posts WHERE id = $2)
             AND ($3::uuid IS NULL OR EXISTS (SELECT 1 FROM comments WHERE id = $3))
           ON CONFLICT DO NOTHING`,
          [
            c.id,
            c.postId,
            c.parentId,
            author.id,
            author.name,
            sanitizeCommentHtml(c.content),
            c.status,
            new Date(now.getTime() - (DEMO_COMMENTS.length - index) * 60_000),
          ],
        );
      }
      return count;
    });
    if (created > 0) {
      this.relay.nudge();
      this.logger.info({ posts: created }, 'demo content seeded');
    }
    return created;
  }
}

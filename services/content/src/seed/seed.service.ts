import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Subjects, type PostPublishedEvent } from '@district/contracts';
import {
  OutboxService,
  PLATFORM_LOGGER,
  PLATFORM_RUNTIME,
  type Logger,
  type PlatformRuntime,
} from '@district/nest-common';
import { CategoriesRepository } from '../categories/categories.repository';
import { CommentsRepository } from '../comments/comments.repository';
import { sanitizeCommentHtml, sanitizePostHtml } from '../html/html-sanitizer';
import { htmlToText } from '../html/html-text';
import { excerptOf, readTimeOf } from '../posts/post-text';
import { PostsRepository } from '../posts/posts.repository';
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
    @Inject(CategoriesRepository) private readonly categories: CategoriesRepository,
    @Inject(PostsRepository) private readonly posts: PostsRepository,
    @Inject(CommentsRepository) private readonly comments: CommentsRepository,
    @Inject(OutboxService) private readonly outbox: OutboxService,
    @Inject(PLATFORM_RUNTIME) private readonly runtime: PlatformRuntime,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.runtime.demo) await this.seedDemoContent();
  }

  async seedDemoContent(now = new Date()): Promise<number> {
    const created = await this.dataSource.transaction(async (tx) => {
      let count = 0;
      for (const c of DEMO_CATEGORIES) await this.categories.insertDemo(tx, c);
      for (const p of DEMO_POSTS) {
        const content = sanitizePostHtml(p.content);
        const text = htmlToText(content);
        const author = authorOf(p.author);
        const publishedAt = new Date(now.getTime() - p.daysAgo * DAY_MS);
        const inserted = await this.posts.insertDemo(tx, {
          id: p.id,
          slug: p.slug,
          title: p.title,
          content,
          contentText: text,
          excerpt: excerptOf(p.excerpt, text),
          categoryId: p.categoryId,
          tags: p.tags,
          metaDescription: p.metaDescription,
          metaKeywords: p.metaKeywords,
          seoTitle: p.seoTitle,
          focusKeyword: p.focusKeyword,
          authorId: author.id,
          authorName: author.name,
          publishedAt,
          readTime: readTimeOf(text),
        });
        if (!inserted) continue;
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
        await this.outbox.enqueue(tx, Subjects.contentPostPublished, event);
      }
      for (const [index, c] of DEMO_COMMENTS.entries()) {
        const author = authorOf(c.author);
        await this.comments.insertDemo(tx, {
          id: c.id,
          postId: c.postId,
          parentId: c.parentId,
          authorId: author.id,
          authorName: author.name,
          content: sanitizeCommentHtml(c.content),
          status: c.status,
          createdAt: new Date(now.getTime() - (DEMO_COMMENTS.length - index) * 60_000),
        });
      }
      return count;
    });
    if (created > 0) {
      this.logger.info({ posts: created }, 'demo content seeded');
    }
    return created;
  }
}

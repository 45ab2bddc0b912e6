import { Module, type DynamicModule } from '@nestjs/common';
import { PlatformModule, type PlatformRuntime } from '@district/nest-common';
import { CategoriesController } from './categories/categories.controller';
import { CategoriesService } from './categories/categories.service';
import {
  COMMENT_RATE_LIMITS_CONFIG,
  CommentRateLimit,
  commentRateLimitsFromEnv,
} from './comments/comment-rate-limit';
import { CommentsController } from './comments/comments.controller';
import { CommentsService } from './comments/comments.service';
import { DiscoveryController } from './discovery/discovery.controller';
import { DiscoveryService } from './discovery/discovery.service';
import { SitemapEventsConsumer } from './discovery/sitemap-events.consumer';
import { ImagesController } from './images/images.controller';
import { ImagesService } from './images/images.service';
import { contentMigrations } from './migrations';
import { PostsController } from './posts/posts.controller';
import { PostsService } from './posts/posts.service';
import { SeedService } from './seed/seed.service';
import { SeoController } from './seo/seo.controller';
import { SiteSettingsService } from './seo/site-settings.service';
import { UserEventsConsumer } from './users/user-events.consumer';

export const CONTENT_SERVICE_NAME = 'content';

export interface ContentModuleOptions {
  /** Database schema; defaults to the service name (tests use a throwaway one). */
  schema?: string;
}

/**
 * content's root module: the platform (database, bus, guard…) plus its domains. Its queries are plain SQL
 * over the tables of its migrations, so it registers no TypeORM entities.
 */
@Module({})
export class ContentModule {
  static forRoot(runtime: PlatformRuntime, options: ContentModuleOptions = {}): DynamicModule {
    const schema = options.schema ?? CONTENT_SERVICE_NAME;
    // Read at start, so a bad CONTENT_COMMENT_RATE_* value stops the service with the problem named.
    const commentRateLimits = commentRateLimitsFromEnv(runtime.env);
    return {
      module: ContentModule,
      imports: [
        PlatformModule.forService({
          name: CONTENT_SERVICE_NAME,
          runtime,
          schema,
          entities: [],
          migrations: contentMigrations,
        }),
      ],
      controllers: [
        PostsController,
        CategoriesController,
        CommentsController,
        ImagesController,
        SeoController,
        DiscoveryController,
      ],
      providers: [
        PostsService,
        CategoriesService,
        CommentsService,
        { provide: COMMENT_RATE_LIMITS_CONFIG, useValue: commentRateLimits },
        CommentRateLimit,
        ImagesService,
        SiteSettingsService,
        DiscoveryService,
        UserEventsConsumer,
        SitemapEventsConsumer,
        SeedService,
      ],
    };
  }
}

import { Module, type DynamicModule } from '@nestjs/common';
import { PlatformModule, type PlatformRuntime } from '@district/nest-common';
import { CategoriesModule } from './categories/categories.module';
import { CommentsModule } from './comments/comments.module';
import { DiscoveryModule } from './discovery/discovery.module';
import { ImagesModule } from './images/images.module';
import { contentConfig } from './content.config';
import { contentMigrations } from './migrations';
import { PostsModule } from './posts/posts.module';
import { SeedModule } from './seed/seed.module';
import { SeoModule } from './seo/seo.module';
import { SettingsModule } from './settings/settings.module';
import { UsersModule } from './users/users.module';

export const CONTENT_SERVICE_NAME = 'content';

export interface ContentModuleOptions {
  /** Database schema; defaults to the service name (tests use a throwaway one). */
  schema?: string;
}

/**
 * content's root module: the platform (database, bus, guard…) plus its domains, one module each. Its queries
 * are plain SQL in each domain's repository, over the tables of its migrations, so it registers no TypeORM
 * entities. Configuration is read here, at start.
 */
@Module({})
export class ContentModule {
  static forRoot(runtime: PlatformRuntime, options: ContentModuleOptions = {}): DynamicModule {
    const schema = options.schema ?? CONTENT_SERVICE_NAME;
    // Read at start, so a bad CONTENT_COMMENT_RATE_* value stops the service with the problem named.
    const config = contentConfig.provide(runtime);
    return {
      module: ContentModule,
      // Global so the domain modules see the configuration without importing their parent.
      global: true,
      imports: [
        PlatformModule.forService({
          name: CONTENT_SERVICE_NAME,
          runtime,
          schema,
          entities: [],
          migrations: contentMigrations,
        }),
        PostsModule,
        CategoriesModule,
        CommentsModule,
        ImagesModule,
        SettingsModule,
        SeoModule,
        DiscoveryModule,
        UsersModule,
        SeedModule,
      ],
      providers: [config],
      exports: [config.provide],
    };
  }
}

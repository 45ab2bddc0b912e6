import { Module, type DynamicModule } from '@nestjs/common';
import { PlatformModule, type PlatformRuntime } from '@district/nest-common';
import { ChatroomsModule } from './chatrooms/chatrooms.module';
import { chatConfig } from './live/live.config';
import { LiveModule } from './live/live.module';
import { chatMigrations } from './migrations';
import { SeedModule } from './seed/seed.module';
import { UsersModule } from './users/users.module';

export const CHAT_SERVICE_NAME = 'chat';

export interface ChatModuleOptions {
  /** Database schema; defaults to the service name (tests use a throwaway one). */
  schema?: string;
}

/**
 * chat's root module: the platform (database, bus, guard…) plus its domains, one module each. Queries are plain
 * SQL in the repositories, over the tables of its migrations, so it registers no TypeORM entities. Config (live/live.config.ts) is
 * checked here, at start, and provided globally under LIVE_CONFIG.
 */
@Module({})
export class ChatModule {
  static forRoot(runtime: PlatformRuntime, options: ChatModuleOptions = {}): DynamicModule {
    const config = chatConfig.provide(runtime);
    const schema = options.schema ?? CHAT_SERVICE_NAME;
    return {
      module: ChatModule,
      // Global, like every service's root, so configuration read here later reaches the domains.
      global: true,
      imports: [
        PlatformModule.forService({
          name: CHAT_SERVICE_NAME,
          runtime,
          schema,
          entities: [],
          migrations: chatMigrations,
          // Class chatrooms follow the district's roster (issue #36, ADR 0042).
          roster: true,
          // Live rooms are Redis: without it chat serves nothing worth routing to (ADR 0043).
          readyWith: ['store'],
        }),
        ChatroomsModule,
        UsersModule,
        LiveModule,
        SeedModule,
      ],
      providers: [config],
      exports: [config.provide],
    };
  }
}

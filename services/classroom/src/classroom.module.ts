import { Module, type DynamicModule } from '@nestjs/common';
import { PlatformModule, type PlatformRuntime } from '@district/nest-common';
import { AudioListsModule } from './audio-lists/audio-lists.module';
import { AudioProxyModule } from './audio-proxy/audio-proxy.module';
import { AUDIO_PROXY_CONFIG } from './audio-proxy/audio-proxy.config';
import { CLASSROOM_CONFIG, classroomConfig } from './classroom.config';
import { LessonPlansModule } from './lesson-plans/lesson-plans.module';
import { classroomMigrations } from './migrations';
import { SeedModule } from './seed/seed.module';
import { SlidesModule } from './slides/slides.module';
import { UsersModule } from './users/users.module';

export const CLASSROOM_SERVICE_NAME = 'classroom';

export interface ClassroomModuleOptions {
  /** Database schema; defaults to the service name (tests use a throwaway one). */
  schema?: string;
}

/**
 * classroom's root module: the platform (database, bus, guard…) plus its domains, one module each. Queries are
 * plain SQL in the repositories, over the tables of its migrations, so it registers no TypeORM entities.
 * Config is checked here, at start, and provided globally under CLASSROOM_CONFIG (and AUDIO_PROXY_CONFIG, its
 * audio proxy's part).
 */
@Module({})
export class ClassroomModule {
  static forRoot(runtime: PlatformRuntime, options: ClassroomModuleOptions = {}): DynamicModule {
    const config = classroomConfig.provide(runtime);
    const schema = options.schema ?? CLASSROOM_SERVICE_NAME;
    return {
      module: ClassroomModule,
      global: true,
      imports: [
        PlatformModule.forService({
          name: CLASSROOM_SERVICE_NAME,
          runtime,
          schema,
          entities: [],
          migrations: classroomMigrations,
          // Items gain the school of their creator (issue #36, ADR 0042).
          roster: true,
        }),
        AudioListsModule,
        AudioProxyModule,
        LessonPlansModule,
        SlidesModule,
        UsersModule,
        SeedModule,
      ],
      providers: [config, { provide: AUDIO_PROXY_CONFIG, useExisting: CLASSROOM_CONFIG }],
      exports: [CLASSROOM_CONFIG, AUDIO_PROXY_CONFIG],
    };
  }
}

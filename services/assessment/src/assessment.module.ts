import { Module, type DynamicModule } from '@nestjs/common';
import { PlatformModule, type PlatformRuntime } from '@district/nest-common';
import { GradebookModule } from './gradebook/gradebook.module';
import { GradesModule } from './grades/grades.module';
import { assessmentMigrations } from './migrations';
import { QuizzesModule } from './quizzes/quizzes.module';
import { SeedModule } from './seed/seed.module';
import { UsersModule } from './users/users.module';

export const ASSESSMENT_SERVICE_NAME = 'assessment';

export interface AssessmentModuleOptions {
  /** Database schema; defaults to the service name (tests use a throwaway one). */
  schema?: string;
}

/**
 * assessment's root module: the platform (database, bus, guard…) plus its domains, one module each. Queries are
 * plain SQL in the repositories, over the tables of its migrations, so it registers no TypeORM entities.
 */
@Module({})
export class AssessmentModule {
  static forRoot(runtime: PlatformRuntime, options: AssessmentModuleOptions = {}): DynamicModule {
    const schema = options.schema ?? ASSESSMENT_SERVICE_NAME;
    return {
      module: AssessmentModule,
      global: true,
      imports: [
        PlatformModule.forService({
          name: ASSESSMENT_SERVICE_NAME,
          runtime,
          schema,
          entities: [],
          migrations: assessmentMigrations,
          // Results and quizzes are scoped by the district's roster (ADR 0042).
          roster: true,
        }),
        QuizzesModule,
        GradesModule,
        GradebookModule,
        UsersModule,
        SeedModule,
      ],
    };
  }
}

import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PLATFORM_LOGGER, PLATFORM_RUNTIME, type Logger, type PlatformRuntime } from '@district/nest-common';
import { GradesService } from '../grades/grades.service';
import { QuizzesRepository } from '../quizzes/quizzes.repository';
import { QuizzesService } from '../quizzes/quizzes.service';
import { DEMO_AUTHOR, DEMO_QUIZZES, DEMO_STUDENT } from './demo-quizzes';

/**
 * On a demo site, the demo quizzes and the demo student's results. A quiz with the same id is left as it is, and a
 * result is stored once (its fixed idempotency key), so restarts and racing replicas are harmless.
 */
@Injectable()
export class SeedService implements OnApplicationBootstrap {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(QuizzesService) private readonly quizzes: QuizzesService,
    @Inject(QuizzesRepository) private readonly quizRows: QuizzesRepository,
    @Inject(GradesService) private readonly grades: GradesService,
    @Inject(PLATFORM_RUNTIME) private readonly runtime: PlatformRuntime,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.runtime.demo) await this.seedDemo();
  }

  /** Answers how many quizzes and results were created. */
  async seedDemo(): Promise<{ quizzes: number; results: number }> {
    let quizzes = 0;
    let results = 0;
    for (const demo of DEMO_QUIZZES) {
      const created = await this.dataSource.transaction((tx) =>
        this.quizzes.seed(tx, demo.kind, demo.id, demo.input(this.runtime.publicUrl), {
          id: DEMO_AUTHOR.id,
          name: DEMO_AUTHOR.name,
        }),
      );
      if (created) quizzes++;
      // Only for a quiz still as seeded: a teacher's edit or deletion is not undone by a result.
      const quiz = await this.quizRows.find(demo.kind, demo.id);
      if (!quiz) continue;
      for (const attempt of demo.attempts) {
        const student = { id: DEMO_STUDENT.id, name: DEMO_STUDENT.name };
        const { created: stored } = await this.grades
          .recordFor(demo.kind, student, demo.id, attempt.answers, attempt.key)
          .catch((err: unknown) => {
            // A teacher lowered the attempts or changed the questions: the demo result is left out.
            this.logger.warn({ err, quizId: demo.id }, 'demo result not stored');
            return { created: false };
          });
        if (stored) results++;
      }
    }
    if (quizzes + results > 0) this.logger.info({ quizzes, results }, 'demo quizzes seeded');
    return { quizzes, results };
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  Subjects,
  type Quiz,
  type QuizChangedEvent,
  type QuizDeletedEvent,
  type QuizInput,
  type QuizKind,
} from '@district/contracts';
import { OutboxService, PLATFORM_LOGGER, type Logger } from '@district/nest-common';
import { QuizNotFoundError } from '../assessment.errors';
import { QuizzesRepository, type Author } from './quizzes.repository';

/**
 * Audio and text quizzes (spec §3, §7): teachers and admins write them whole; everyone signed in lists them.
 * Every change enqueues its `assessment.quiz.*` event in the transaction that makes it.
 */
@Injectable()
export class QuizzesService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(QuizzesRepository) private readonly quizzes: QuizzesRepository,
    @Inject(OutboxService) private readonly outbox: OutboxService,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {}

  list(kind: QuizKind): Promise<Quiz[]> {
    return this.quizzes.list(kind);
  }

  async get(kind: QuizKind, id: string): Promise<Quiz> {
    const quiz = await this.quizzes.find(kind, id);
    if (!quiz) throw new QuizNotFoundError();
    return quiz;
  }

  async create(kind: QuizKind, input: QuizInput, author: Author): Promise<Quiz> {
    const quiz = await this.dataSource.transaction(async (tx) => {
      const created = (await this.quizzes.insert(tx, kind, input, author)) as Quiz;
      await this.enqueueChanged(tx, Subjects.assessmentQuizCreated, created);
      return created;
    });
    this.logger.info({ quizId: quiz.id, kind, questions: quiz.questions.length }, 'quiz created');
    return quiz;
  }

  /** A fixed-id quiz unless it exists (demo data); its created event when inserted. */
  async seed(
    tx: EntityManager,
    kind: QuizKind,
    id: string,
    input: QuizInput,
    author: Author,
  ): Promise<boolean> {
    const created = await this.quizzes.insert(tx, kind, input, author, id);
    if (created) await this.enqueueChanged(tx, Subjects.assessmentQuizCreated, created);
    return created !== null;
  }

  async update(kind: QuizKind, id: string, input: QuizInput): Promise<Quiz> {
    const quiz = await this.dataSource.transaction(async (tx) => {
      const updated = await this.quizzes.update(tx, kind, id, input);
      if (!updated) throw new QuizNotFoundError();
      await this.enqueueChanged(tx, Subjects.assessmentQuizUpdated, updated);
      return updated;
    });
    this.logger.info({ quizId: id, kind, version: quiz.version }, 'quiz updated');
    return quiz;
  }

  /** Results stay (they keep the questions as answered); the quiz's accommodations go with it. */
  async remove(kind: QuizKind, id: string): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      if (!(await this.quizzes.delete(tx, kind, id))) throw new QuizNotFoundError();
      await this.outbox.enqueue(tx, Subjects.assessmentQuizDeleted, {
        quizId: id,
        kind,
      } satisfies QuizDeletedEvent);
    });
    this.logger.info({ quizId: id, kind }, 'quiz deleted');
  }

  /** A teacher's extra attempts for one student (0 removes them). */
  async accommodate(kind: QuizKind, quizId: string, userId: string, extraAttempts: number): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      if (!(await this.quizzes.find(kind, quizId, tx))) throw new QuizNotFoundError();
      await this.quizzes.setExtraAttempts(tx, quizId, userId.toLowerCase(), extraAttempts);
    });
    this.logger.info({ quizId, userId, extraAttempts }, 'quiz accommodation set');
  }

  private async enqueueChanged(tx: EntityManager, subject: string, quiz: Quiz): Promise<void> {
    const event: QuizChangedEvent = {
      quiz: {
        id: quiz.id,
        kind: quiz.kind,
        title: quiz.title,
        maxAttempts: quiz.maxAttempts,
        questionCount: quiz.questions.length,
        version: quiz.version,
        createdById: quiz.createdById,
      },
    };
    await this.outbox.enqueue(tx, subject, event);
  }
}

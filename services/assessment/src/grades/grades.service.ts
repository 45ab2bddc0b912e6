import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { DataSource } from 'typeorm';
import {
  AssessmentMessages as M,
  Subjects,
  type AttemptStart,
  type Grade,
  type GradeDeletedEvent,
  type GradeQuery,
  type GradeRecordedEvent,
  type GradeSubmission,
  type ItemAnalysis,
  type QuizKind,
  auditRecord,
  type AuditStamp,
} from '@district/contracts';
import {
  OutboxService,
  PLATFORM_LOGGER,
  ServiceMetrics,
  violatedUniqueConstraint,
  type AuthUser,
  type Logger,
} from '@district/nest-common';
import {
  AnswersInvalidError,
  AttemptLimitError,
  GradeNotFoundError,
  QuizNotFoundError,
} from '../assessment.errors';
import { forTaking, isStaff } from '../quizzes/quiz-views';
import { enqueueAudit, gradeAuditTarget } from '../users/audit';
import { QuizzesRepository } from '../quizzes/quizzes.repository';
import { GradesRepository } from './grades.repository';
import { analyseItems } from './item-analysis';
import { attemptsAllowed, mark, mayAttempt } from './marking';

export const GRADES_IDEMPOTENCY_INDEX = 'grades_idempotency_idx';

/** Who an attempt is for: the id and the name shown on the result. */
export type Person = Pick<AuthUser, 'id' | 'name'>;

/** A submission's outcome: the stored result, and whether this call stored it (false: a retry's answer). */
export interface Submitted {
  grade: Grade;
  created: boolean;
}

/**
 * Results (spec §3, §7): the server marks every submission from its stored answer key, holds the attempt limit
 * under concurrency (one transaction-scoped advisory lock per quiz and person, on any replica) and stores a
 * retried submission once (`Idempotency-Key`). Each stored result enqueues `assessment.grade.recorded`.
 */
@Injectable()
export class GradesService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(GradesRepository) private readonly grades: GradesRepository,
    @Inject(QuizzesRepository) private readonly quizzes: QuizzesRepository,
    @Inject(OutboxService) private readonly outbox: OutboxService,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
    @Inject(ServiceMetrics) metrics: ServiceMetrics,
  ) {
    this.submissions = new Counter({
      name: 'assessment_submissions_total',
      help: 'Quiz submissions by kind and outcome (stored; replayed: a retried Idempotency-Key; refused: limit or bad answers)',
      labelNames: ['kind', 'outcome'],
      registers: [metrics.registry],
    });
  }

  private readonly submissions: Counter<'kind' | 'outcome'>;

  /** Teachers and admins: every result (filters as asked). Anyone else: their own, whatever `userId` says. */
  list(kind: QuizKind, viewer: AuthUser, query: GradeQuery): Promise<Grade[]> {
    const userId = isStaff(viewer) ? query.userId?.toLowerCase() : viewer.id;
    return this.grades.list(kind, { userId, quizId: query.quizId?.toLowerCase() });
  }

  /** Item analysis of a quiz from its results on the current version (teachers and admins). */
  async analyse(kind: QuizKind, quizId: string): Promise<ItemAnalysis> {
    const quiz = await this.quizzes.find(kind, quizId);
    if (!quiz) throw new QuizNotFoundError();
    const results = await this.grades.list(kind, { quizId });
    const current = results.filter((r) => r.quizVersion === quiz.version);
    return {
      quizId,
      version: quiz.version,
      results: current.length,
      olderResults: results.length - current.length,
      questions: analyseItems(quiz.questions, current),
    };
  }

  /** The start of an attempt: the quiz without its key, or 'Attempt Limit Reached' with the counts. */
  async startAttempt(kind: QuizKind, quizId: string, user: AuthUser): Promise<AttemptStart> {
    const quiz = await this.quizzes.find(kind, quizId);
    if (!quiz) throw new QuizNotFoundError();
    const [taken, extra] = await Promise.all([
      this.grades.count(quizId, user.id),
      this.quizzes.extraAttempts(quizId, user.id),
    ]);
    const allowed = attemptsAllowed(quiz.maxAttempts, extra);
    if (!mayAttempt(taken, allowed)) throw new AttemptLimitError(taken, allowed);
    return { quiz: forTaking(quiz), attemptsTaken: taken, maxAttempts: allowed };
  }

  async submit(
    kind: QuizKind,
    user: AuthUser,
    submission: GradeSubmission,
    idempotencyKey: string | null,
  ): Promise<Submitted> {
    try {
      const submitted = await this.recordFor(
        kind,
        user,
        submission.quizId.toLowerCase(),
        submission.userAnswers,
        idempotencyKey,
      );
      this.submissions.inc({ kind, outcome: submitted.created ? 'stored' : 'replayed' });
      return submitted;
    } catch (error) {
      if (error instanceof AttemptLimitError || error instanceof AnswersInvalidError || error instanceof QuizNotFoundError)
        this.submissions.inc({ kind, outcome: 'refused' });
      throw error;
    }
  }

  /** Marks and stores one attempt of `user` (a submission, or the demo seed's), under the limit and the key. */
  async recordFor(
    kind: QuizKind,
    user: Person,
    quizId: string,
    answers: number[],
    idempotencyKey: string | null,
  ): Promise<Submitted> {
    try {
      return await this.store(kind, user, quizId, answers, idempotencyKey);
    } catch (error) {
      // The same key raced on another quiz (another lock): the first one stored wins, and is the answer.
      if (idempotencyKey !== null && violatedUniqueConstraint(error) === GRADES_IDEMPOTENCY_INDEX) {
        const stored = await this.dataSource.transaction((tx) =>
          this.grades.findByKey(tx, user.id, idempotencyKey),
        );
        if (stored) return { grade: stored, created: false };
      }
      throw error;
    }
  }

  private store(
    kind: QuizKind,
    user: Person,
    quizId: string,
    answers: number[],
    key: string | null,
  ): Promise<Submitted> {
    // Four round trips in all (begin, lock with the state, write with its event, commit): a class submitting at
    // once is bounded by them (bench/assessment).
    return this.dataSource.transaction(async (tx) => {
      // Every submission of this person on this quiz, on every replica, waits here for the one before it.
      const state = await this.grades.lockAttempt(tx, kind, quizId, user.id, key);
      if (key !== null && state.storedId !== null) {
        const stored = await this.grades.findByKey(tx, user.id, key);
        if (stored) return { grade: stored, created: false };
      }
      const quiz = state.quiz;
      if (!quiz) throw new QuizNotFoundError();
      if (answers.length !== quiz.questions.length)
        throw new AnswersInvalidError(M.answersWrongCount(quiz.questions.length));
      const allowed = attemptsAllowed(quiz.maxAttempts, state.extra);
      if (!mayAttempt(state.taken, allowed)) throw new AttemptLimitError(state.taken, allowed);
      const marked = mark(quiz.questions, answers);
      const id = randomUUID();
      const createdAt = new Date();
      const event: GradeRecordedEvent = {
        grade: {
          id,
          kind,
          quizId,
          userId: user.id,
          score: marked.score,
          passed: marked.passed,
          correctAnswers: marked.correctAnswers,
          totalQuestions: marked.totalQuestions,
          createdAt: createdAt.toISOString(),
        },
      };
      const [row] = await this.outbox.enqueueWith(
        tx,
        this.grades.insertStatement({
          id,
          createdAt,
          kind,
          quizId,
          userId: user.id,
          userName: user.name,
          quizTitle: quiz.title,
          ...marked,
          userAnswers: answers,
          questions: quiz.questions,
          quizVersion: quiz.version,
          idempotencyKey: key,
        }),
        Subjects.assessmentGradeRecorded,
        event,
      );
      const grade = this.grades.toGrade(row);
      this.logger.info({ gradeId: grade.id, quizId, kind, score: grade.score }, 'grade recorded');
      return { grade, created: true };
    });
  }

  /** Deletes a result; `by` (the teacher or admin) goes to the audit log with it (ADR 0021). */
  async remove(kind: QuizKind, id: string, by?: AuditStamp): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const target = by ? await gradeAuditTarget(tx, kind, id) : null;
      if (!(await this.grades.delete(tx, kind, id))) throw new GradeNotFoundError();
      await this.outbox.enqueue(tx, Subjects.assessmentGradeDeleted, {
        gradeId: id,
        kind,
      } satisfies GradeDeletedEvent);
      if (by && target)
        await enqueueAudit(this.outbox, tx, auditRecord(by, 'grade.deleted', target, { kind, userId: target.userId }));
    });
    this.logger.info({ gradeId: id, kind }, 'grade deleted');
  }
}

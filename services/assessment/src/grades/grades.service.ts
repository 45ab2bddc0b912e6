import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { DataSource, type EntityManager } from 'typeorm';
import {
  AssessmentMessages as M,
  Subjects,
  type AttemptStart,
  type Grade,
  type GradeDeletedEvent,
  type GradeRecordedEvent,
  type GradeSubmission,
  type Quiz,
  type QuizInput,
  type QuizKind,
  QUIZ_OPTIONS_COUNT,
  auditRecord,
} from '@district/contracts';
import {
  AuditTrail,
  OutboxService,
  PLATFORM_LOGGER,
  RosterScope,
  ServiceMetrics,
  violatedUniqueConstraint,
  type AuthUser,
  type Logger,
} from '@district/nest-common';
import {
  AnswersInvalidError,
  AttemptLimitError,
  GradeNotFoundError,
  GradeOwnerError,
  QuizChangingError,
  QuizNotFoundError,
} from '../assessment.errors';
import { canChange, forTaking, isStaff } from '../quizzes/quiz-views';
import type { Actor } from '../quizzes/quizzes.service';
import { QuizzesRepository } from '../quizzes/quizzes.repository';
import { GradesRepository, type SubmitOutcome } from './grades.repository';
import { QuizCache } from './quiz-cache';
import { attemptsAllowed, mayAttempt } from '../quizzes/attempt-rules';
import { mark } from './marking';
import {
  answerKeyFor,
  deletedQuizState,
  reviewOf,
  reviewState,
  type ReviewState,
  type StoredGrade,
} from './review';

export const GRADES_IDEMPOTENCY_INDEX = 'grades_idempotency_idx';

/** The rehearsal's quiz (never committed): ten questions, unlimited attempts, like a class's text quiz. */
const REHEARSAL_QUIZ: QuizInput = {
  title: 'Rehearsal',
  description: '',
  maxAttempts: -1,
  audioPlayLimit: null,
  revealAnswers: 'always',
  questions: Array.from({ length: 10 }, (_, i) => ({
    question: `Question ${i + 1}`,
    options: ['a', 'b', 'c', 'd'],
    correctAnswer: i % QUIZ_OPTIONS_COUNT,
  })),
};
const REHEARSAL_AUTHOR = { id: '00000000-0000-4000-8000-000000000000', name: 'Rehearsal' };
/**
 * The made-up people of a rehearsal, taking turns. Few, because its one transaction keeps every attempt lock it
 * took until it rolls back, and PostgreSQL's lock table is shared by the whole server (max_locks_per_transaction ×
 * max_connections): a thousand people would hold a thousand entries while a replica starts.
 */
const REHEARSAL_PEOPLE = 10;

/** How many times a submission reads its quiz again when the quiz changed between its marking and its storing. */
const STALE_RETRIES = 3;

/** Who an attempt is for: the id and the name shown on the result. */
export type Person = Pick<AuthUser, 'id' | 'name'>;

/** A submission's outcome: the result as its submitter sees it, and whether this call stored it (false: a retry's answer). */
export interface Submitted {
  grade: Grade;
  created: boolean;
}

/** A stored attempt: the result with its key, and the review's state when the storing statement knew it. */
interface Recorded {
  grade: StoredGrade;
  created: boolean;
  state: ReviewState | null;
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
    @Inject(AuditTrail) private readonly audit: AuditTrail,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
    @Inject(ServiceMetrics) metrics: ServiceMetrics,
    @Inject(RosterScope) private readonly roster: RosterScope,
  ) {
    this.submissions = new Counter({
      name: 'assessment_submissions_total',
      help: 'Quiz submissions by kind and outcome (stored; replayed: a retried Idempotency-Key; refused: limit or bad answers)',
      labelNames: ['kind', 'outcome'],
      registers: [metrics.registry],
    });
    this.quizCache = new QuizCache(quizzes);
  }

  private readonly submissions: Counter<'kind' | 'outcome'>;
  /** The quizzes this replica marks against (submit_grade checks their version). */
  private readonly quizCache: QuizCache;

  /** Results as `viewer` may read them (ADR 0033): the key is decided here from the stored quiz, never sent to be hidden. */
  async views(viewer: AuthUser, stored: StoredGrade[]): Promise<Grade[]> {
    if (isStaff(viewer)) return stored.map((g) => reviewOf(g, 'shown'));
    const quizIds = [...new Set(stored.map((g) => g.quizId))];
    const states = new Map(
      (await this.quizzes.attemptsOn(viewer.id.toLowerCase(), quizIds)).map(({ quiz, taken, extra }) => [
        quiz.id,
        reviewState(quiz, taken, extra),
      ]),
    );
    return stored.map((g) => reviewOf(g, answerKeyFor(false, states.get(g.quizId) ?? deletedQuizState(g))));
  }

  /** The start of an attempt: the quiz without its key, or 'Attempt Limit Reached' with the counts. */
  async startAttempt(kind: QuizKind, quizId: string, user: AuthUser): Promise<AttemptStart> {
    const quiz = await this.quizzes.find(kind, quizId);
    if (!quiz || !(await this.mayTake(user, quiz))) throw new QuizNotFoundError();
    const [taken, extra] = await Promise.all([
      this.grades.count(quizId, user.id),
      this.quizzes.extraAttempts(quizId, user.id),
    ]);
    const allowed = attemptsAllowed(quiz.maxAttempts, extra);
    if (!mayAttempt(taken, allowed)) throw new AttemptLimitError(taken, allowed);
    return { quiz: forTaking(quiz), attemptsTaken: taken, maxAttempts: allowed };
  }

  /** Staff take any quiz; a student an unassigned one or one assigned to a class of theirs (the roster's). */
  private async mayTake(user: Person | AuthUser, quiz: Quiz): Promise<boolean> {
    // The demo seed's made-up pupils (a Person without a session) take only unassigned demo quizzes.
    if (quiz.classIds.length === 0 || !('role' in user) || isStaff(user)) return true;
    return this.roster.inAnyClass(user.id, quiz.classIds);
  }

  async submit(
    kind: QuizKind,
    user: AuthUser,
    submission: GradeSubmission,
    idempotencyKey: string | null,
  ): Promise<Submitted> {
    try {
      const recorded = await this.recordFor(
        kind,
        user,
        submission.quizId.toLowerCase(),
        submission.userAnswers,
        idempotencyKey,
      );
      this.submissions.inc({ kind, outcome: recorded.created ? 'stored' : 'replayed' });
      // The state the storing statement saw (its count and limit) spares a query; a retry's answer reads it again.
      const grade =
        recorded.state === null || isStaff(user)
          ? (await this.views(user, [recorded.grade]))[0]
          : reviewOf(recorded.grade, answerKeyFor(false, recorded.state));
      return { grade, created: recorded.created };
    } catch (error) {
      if (
        error instanceof AttemptLimitError ||
        error instanceof AnswersInvalidError ||
        error instanceof QuizNotFoundError ||
        error instanceof QuizChangingError
      )
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
  ): Promise<Recorded> {
    try {
      return await this.store(kind, user, quizId, answers, idempotencyKey);
    } catch (error) {
      // The same key raced on another quiz (another lock): the first one stored wins, and is the answer.
      if (idempotencyKey !== null && violatedUniqueConstraint(error) === GRADES_IDEMPOTENCY_INDEX) {
        const stored = await this.grades.findByKey(this.dataSource.manager, user.id, idempotencyKey);
        if (stored) return { grade: stored, created: false, state: null };
      }
      throw error;
    }
  }

  private async store(
    kind: QuizKind,
    user: Person,
    quizId: string,
    answers: number[],
    key: string | null,
  ): Promise<Recorded> {
    // One round trip when this replica has read the quiz before (submit_grade): a class submitting at once is
    // bounded by round trips (bench/assessment).
    let fresh = false;
    for (let tries = 0; tries <= STALE_RETRIES; tries++) {
      const quiz = await this.quizCache.get(kind, quizId, fresh);
      // A quiz assigned to classes is, to a student outside them, no quiz (ADR 0042); its version is checked below.
      if (quiz && !(await this.mayTake(user, quiz))) throw new QuizNotFoundError();
      if (quiz && answers.length !== quiz.questions.length) {
        // The quiz as this replica last read it may be older than the one the pupil answered.
        if (!fresh) {
          fresh = true;
          continue;
        }
        // A retry of an attempt stored before the quiz changed is still answered with its result.
        const stored =
          key === null ? null : await this.grades.findByKey(this.dataSource.manager, user.id, key);
        if (stored) return { grade: stored, created: false, state: null };
        throw new AnswersInvalidError(M.answersWrongCount(quiz.questions.length));
      }
      const outcome = await this.submitMarked(
        this.dataSource.manager,
        kind,
        user,
        quizId,
        quiz,
        answers,
        key,
      );
      switch (outcome.status) {
        case 'created': {
          const grade = outcome.grade as StoredGrade;
          this.logger.info({ gradeId: grade.id, quizId, kind, score: grade.score }, 'grade recorded');
          // `taken` counts the results before this one, under the attempt lock, against `allowed`; the quiz is
          // the version stored (submit_grade checked it), so its review setting is the row's.
          const state =
            quiz && outcome.taken !== null && outcome.allowed !== null
              ? {
                  revealAnswers: quiz.revealAnswers,
                  noAttemptLeft: !mayAttempt(outcome.taken + 1, outcome.allowed),
                }
              : null;
          return { grade, created: true, state };
        }
        case 'replayed':
          return { grade: outcome.grade as StoredGrade, created: false, state: null };
        case 'limit':
          throw new AttemptLimitError(outcome.taken as number, outcome.allowed as number);
        case 'missing':
          this.quizCache.forget(kind, quizId);
          throw new QuizNotFoundError();
        case 'stale':
          // Edited (or created) since this replica read it: read it again and mark again.
          fresh = true;
      }
    }
    throw new QuizChangingError();
  }

  /**
   * Marks `answers` against `quiz` (null: none known — only a result stored under the key can come back) and
   * stores the result with its event through `submit_grade`, in `manager`'s transaction if it has one; the relay is
   * nudged after a commit that stored one.
   */
  private async submitMarked(
    manager: EntityManager,
    kind: QuizKind,
    user: Person,
    quizId: string,
    quiz: Quiz | null,
    answers: number[],
    key: string | null,
  ): Promise<SubmitOutcome> {
    const marked = mark(quiz?.questions ?? [], answers);
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
    const outcome = await this.grades.submit(manager, {
      id,
      createdAt,
      kind,
      quizId,
      // No quiz version is below 1: without a quiz, nothing is stored.
      version: quiz?.version ?? 0,
      userId: user.id,
      userName: user.name,
      marked,
      userAnswers: answers,
      idempotencyKey: key,
      event: this.outbox.eventValues(Subjects.assessmentGradeRecorded, event),
    });
    return outcome;
  }

  /**
   * A replica's rehearsal before it takes traffic (the platform's warm-up, ADR 0019): up to `rounds` submissions
   * by ten made-up people on a quiz of its own, each marked, locked, checked and stored by the same code as a real
   * one (every tenth sent again with its key, as a retry), all in one transaction that is rolled back — no quiz,
   * result or event stays. Answers the rounds done before `deadline`.
   */
  async rehearse(rounds: number, deadline: number): Promise<number> {
    let done = 0;
    const rolledBack = new Error('rehearsal: rolled back');
    try {
      await this.dataSource.transaction(async (tx) => {
        const quiz = await this.quizzes.insert(tx, 'text', REHEARSAL_QUIZ, REHEARSAL_AUTHOR);
        if (!quiz) throw new Error('rehearsal: the quiz was not stored');
        const people = Array.from({ length: REHEARSAL_PEOPLE }, () => ({
          id: randomUUID(),
          name: REHEARSAL_AUTHOR.name,
        }));
        for (; done < rounds && Date.now() < deadline; done++) {
          const person = people[done % REHEARSAL_PEOPLE];
          const answers = quiz.questions.map((_, i) => (i + done) % QUIZ_OPTIONS_COUNT);
          const key = randomUUID();
          const first = await this.submitMarked(tx, 'text', person, quiz.id, quiz, answers, key);
          if (first.status !== 'created') throw new Error(`rehearsal: a submission was ${first.status}`);
          if (done % 10 === 0) await this.submitMarked(tx, 'text', person, quiz.id, quiz, answers, key);
        }
        throw rolledBack;
      });
    } catch (error) {
      if (error !== rolledBack) throw error;
    }
    return done;
  }

  /**
   * Deletes a result, by the owner of its quiz or an administrator (a deleted quiz's results: administrators only),
   * decided from the stored rows under a lock; recorded in the audit log (ADR 0021, 0033).
   */
  async remove(kind: QuizKind, id: string, by: Actor): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const target = await this.grades.lockWithOwner(tx, kind, id);
      if (!target) throw new GradeNotFoundError();
      if (!canChange(by.user, target.quizExists ? target.ownerId : null)) throw new GradeOwnerError();
      if (!(await this.grades.delete(tx, kind, id))) throw new GradeNotFoundError();
      await this.outbox.enqueue(tx, Subjects.assessmentGradeDeleted, {
        gradeId: id,
        kind,
      } satisfies GradeDeletedEvent);
      await this.audit.record(
        tx,
        auditRecord(
          by.stamp,
          'grade.deleted',
          { type: 'grade', id, label: `${target.quizTitle} — ${target.userName}` },
          { kind, userId: target.userId },
        ),
      );
    });
    this.logger.info({ gradeId: id, kind }, 'grade deleted');
  }
}

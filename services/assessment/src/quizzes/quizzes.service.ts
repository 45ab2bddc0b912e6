import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  AssessmentMessages as M,
  Subjects,
  auditRecord,
  type AuditStamp,
  type AuthoredQuiz,
  type ListedQuizForTaking,
  type Quiz,
  type QuizChangedEvent,
  type QuizDeletedEvent,
  type QuizInput,
  type QuizKind,
} from '@district/contracts';
import {
  AuditTrail,
  OutboxService,
  PLATFORM_LOGGER,
  RosterScope,
  type AuthUser,
  type Logger,
} from '@district/nest-common';
import { ClassNotYoursError, QuizNotFoundError, QuizOwnerError } from '../assessment.errors';
import { canChange, isStaff, viewFor } from './quiz-views';
import { QuizzesRepository, type Author, type QuizAudience } from './quizzes.repository';

/** Who acts on a quiz: the session's claims (for the owner rule) and the audit stamp (who, from where). */
export interface Actor {
  user: AuthUser;
  stamp: AuditStamp;
}

/** The fields of a quiz an edit may change, as the audit log names them. */
const EDITABLE = [
  'title',
  'description',
  'maxAttempts',
  'audioPlayLimit',
  'revealAnswers',
  'questions',
  'classIds',
] as const;

/** Staff list and open every quiz; anyone else the unassigned ones and their own classes' (ADR 0042). */
export const audienceOf = (user: AuthUser): QuizAudience => (isStaff(user) ? 'staff' : 'student');

function changedFields(before: Quiz, after: Quiz): string[] {
  return EDITABLE.filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]));
}

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
    @Inject(AuditTrail) private readonly audit: AuditTrail,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
    @Inject(RosterScope) private readonly roster: RosterScope,
  ) {}

  /** The list as `user` may see it, with their own attempts on each quiz. */
  async list(kind: QuizKind, user: AuthUser): Promise<(AuthoredQuiz | ListedQuizForTaking)[]> {
    return (await this.quizzes.listWithAttempts(kind, user.id.toLowerCase(), audienceOf(user))).map((row) =>
      viewFor(user, row),
    );
  }

  /** A quiz assigned to classes is, for a student outside them, a quiz that does not exist (404). */
  async get(kind: QuizKind, id: string, user: AuthUser): Promise<AuthoredQuiz | ListedQuizForTaking> {
    const row = await this.quizzes.findWithAttempts(kind, id, user.id.toLowerCase(), audienceOf(user));
    if (!row) throw new QuizNotFoundError();
    return viewFor(user, row);
  }

  /**
   * Every class a quiz is assigned to must be an active class the author teaches or administers (a district
   * administrator: any active class), decided from the roster projection (ADR 0042).
   */
  private async assertClassesManaged(user: AuthUser, classIds: readonly string[] | undefined): Promise<void> {
    for (const classId of classIds ?? []) {
      const known = (await this.roster.schoolOf(classId)) !== undefined;
      if (!known || !(await this.roster.managesClass(user, classId))) throw new ClassNotYoursError();
    }
  }

  async create(kind: QuizKind, input: QuizInput, author: Author, user?: AuthUser): Promise<Quiz> {
    if (input.classIds?.length) {
      if (!user) throw new ClassNotYoursError();
      await this.assertClassesManaged(user, input.classIds);
    }
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

  /**
   * The quiz's owner or an administrator edits it (ADR 0033): decided from the row, locked for the transaction, and
   * recorded in the audit log with the fields changed.
   */
  async update(kind: QuizKind, id: string, input: QuizInput, by: Actor): Promise<Quiz> {
    const quiz = await this.dataSource.transaction(async (tx) => {
      const before = await this.owned(tx, kind, id, by);
      await this.assertClassesManaged(by.user, input.classIds);
      const updated = await this.quizzes.update(tx, kind, id, input);
      if (!updated) throw new QuizNotFoundError();
      await this.enqueueChanged(tx, Subjects.assessmentQuizUpdated, updated);
      await this.audit.record(
        tx,
        auditRecord(
          by.stamp,
          'quiz.updated',
          { type: 'quiz', id, label: updated.title },
          {
            kind,
            ownerId: before.createdById,
            version: updated.version,
            changed: changedFields(before, updated),
          },
        ),
      );
      return updated;
    });
    this.logger.info({ quizId: id, kind, version: quiz.version }, 'quiz updated');
    return quiz;
  }

  /** Results stay (they keep the questions as answered); the quiz's accommodations go with it. Owner or admin. */
  async remove(kind: QuizKind, id: string, by: Actor): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const quiz = await this.owned(tx, kind, id, by);
      if (!(await this.quizzes.delete(tx, kind, id))) throw new QuizNotFoundError();
      await this.outbox.enqueue(tx, Subjects.assessmentQuizDeleted, {
        quizId: id,
        kind,
      } satisfies QuizDeletedEvent);
      await this.audit.record(
        tx,
        auditRecord(
          by.stamp,
          'quiz.deleted',
          { type: 'quiz', id, label: quiz.title },
          {
            kind,
            ownerId: quiz.createdById,
            version: quiz.version,
          },
        ),
      );
    });
    this.logger.info({ quizId: id, kind }, 'quiz deleted');
  }

  /** Extra attempts for one student (0 removes them), set by the quiz's owner or an admin; a change is audited. */
  async accommodate(
    kind: QuizKind,
    quizId: string,
    userId: string,
    extraAttempts: number,
    by: Actor,
  ): Promise<void> {
    const student = userId.toLowerCase();
    const changed = await this.dataSource.transaction(async (tx) => {
      const quiz = await this.owned(tx, kind, quizId, by);
      const previous = await this.quizzes.extraAttempts(quizId, student, tx);
      if (previous === extraAttempts) return false;
      await this.quizzes.setExtraAttempts(tx, quizId, student, extraAttempts);
      await this.audit.record(
        tx,
        auditRecord(
          by.stamp,
          'quiz.accommodation_set',
          { type: 'quiz', id: quizId, label: quiz.title },
          {
            kind,
            userId: student,
            extraAttempts,
            previousExtraAttempts: previous,
          },
        ),
      );
      return true;
    });
    if (changed) this.logger.info({ quizId, userId: student, extraAttempts }, 'quiz accommodation set');
  }

  /** A deleted teacher's quizzes stay with the district, ownerless: administrators only (identity's deletion). */
  disownAll(tx: EntityManager, userId: string): Promise<void> {
    return this.quizzes.disownAll(tx, userId, M.formerStaffMember);
  }

  /** The quiz, locked, when `by` may change it; 404 when there is none, 403 with the owner rule's words. */
  private async owned(tx: EntityManager, kind: QuizKind, id: string, by: Actor): Promise<Quiz> {
    const quiz = await this.quizzes.lock(tx, kind, id);
    if (!quiz) throw new QuizNotFoundError();
    if (!canChange(by.user, quiz.createdById)) throw new QuizOwnerError();
    return quiz;
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

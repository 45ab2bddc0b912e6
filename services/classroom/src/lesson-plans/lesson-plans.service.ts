import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  ClassroomMessages as M,
  Subjects,
  type LessonPlan,
  type LessonPlanChangedEvent,
  type LessonPlanDeletedEvent,
  type LessonPlanInput,
} from '@district/contracts';
import { OutboxService, PLATFORM_LOGGER, type AuthUser, type Logger } from '@district/nest-common';
import { CLASSROOM_CONFIG, type ClassroomConfig } from '../classroom.config';
import { LessonPlanNotFoundError, NotItemOwnerError } from '../classroom.errors';
import { canChange, withRights } from '../rights/rights';
import { SchoolRights } from '../rights/school-rights';
import type { Creator } from '../rights/stored-item';
import { LessonPlansRepository, type StoredLessonPlan } from './lesson-plans.repository';

/**
 * Lesson plans (spec §2, §3, §7): teachers and admins only (the controller refuses everyone else). Every teacher
 * sees every plan of the district (shared, ADR 0020); the creator or an admin edits and deletes (decided from the
 * stored row, locked for the change). Every change enqueues its `classroom.lessonplan.*` event in its transaction.
 */
@Injectable()
export class LessonPlansService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(LessonPlansRepository) private readonly plans: LessonPlansRepository,
    @Inject(OutboxService) private readonly outbox: OutboxService,
    @Inject(CLASSROOM_CONFIG) private readonly config: ClassroomConfig,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
    @Inject(SchoolRights) private readonly schools: SchoolRights,
  ) {}

  async list(user: AuthUser): Promise<LessonPlan[]> {
    const administered = await this.schools.administeredBy(user);
    return (await this.plans.list(this.config.CLASSROOM_LIST_LIMIT)).map((l) =>
      withRights(user, l, administered),
    );
  }

  async create(user: AuthUser, input: LessonPlanInput): Promise<LessonPlan> {
    const schoolId = await this.schools.schoolForNew(user, input.schoolId);
    const plan = await this.dataSource.transaction(async (tx) => {
      const created = (await this.plans.insert(
        tx,
        input,
        { id: user.id, name: user.name },
        undefined,
        schoolId,
      )) as StoredLessonPlan;
      await this.enqueueChanged(tx, Subjects.classroomLessonPlanCreated, created);
      return created;
    });
    this.logger.info({ lessonPlanId: plan.id }, 'lesson plan created');
    return withRights(user, plan);
  }

  /** A fixed-id plan unless it exists (demo data); its created event when inserted. */
  async seed(tx: EntityManager, id: string, input: LessonPlanInput, creator: Creator): Promise<boolean> {
    const created = await this.plans.insert(tx, input, creator, id);
    if (created) await this.enqueueChanged(tx, Subjects.classroomLessonPlanCreated, created);
    return created !== null;
  }

  async update(user: AuthUser, id: string, input: LessonPlanInput): Promise<LessonPlan> {
    const plan = await this.dataSource.transaction(async (tx) => {
      await this.lockChangeable(tx, user, id);
      const updated = (await this.plans.update(tx, id, input)) as StoredLessonPlan;
      await this.enqueueChanged(tx, Subjects.classroomLessonPlanUpdated, updated);
      return updated;
    });
    this.logger.info({ lessonPlanId: id }, 'lesson plan updated');
    return withRights(user, plan, await this.schools.administeredBy(user));
  }

  async remove(user: AuthUser, id: string): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const stored = await this.lockChangeable(tx, user, id);
      await this.plans.delete(tx, id);
      await this.outbox.enqueue(tx, Subjects.classroomLessonPlanDeleted, {
        lessonPlanId: id,
        schoolId: stored.schoolId,
      } satisfies LessonPlanDeletedEvent);
    });
    this.logger.info({ lessonPlanId: id }, 'lesson plan deleted');
  }

  private async lockChangeable(tx: EntityManager, user: AuthUser, id: string): Promise<StoredLessonPlan> {
    const stored = await this.plans.findForUpdate(tx, id);
    if (!stored) throw new LessonPlanNotFoundError();
    if (!canChange(user, stored, await this.schools.administeredBy(user)))
      throw new NotItemOwnerError(M.lessonPlanOwnerOnly);
    return stored;
  }

  private async enqueueChanged(tx: EntityManager, subject: string, plan: StoredLessonPlan): Promise<void> {
    const event: LessonPlanChangedEvent = {
      lessonPlan: {
        id: plan.id,
        title: plan.title,
        subject: plan.subject,
        creatorId: plan.creatorId,
        schoolId: plan.schoolId,
        updatedAt: plan.updatedAt,
      },
    };
    await this.outbox.enqueue(tx, subject, event);
  }
}

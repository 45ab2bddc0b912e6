import { Inject, Injectable } from '@nestjs/common';
import {
  ClassroomMessages as M,
  Subjects,
  type AudioListChangedEvent,
  type GoogleSlideChangedEvent,
  type LessonPlanChangedEvent,
  type UserExportSections,
} from '@district/contracts';
import {
  OutboxService,
  PLATFORM_LOGGER,
  type Logger,
  type PeopleDataDeclaration,
  type PeopleDataHolder,
} from '@district/nest-common';
import type { EntityManager } from 'typeorm';
import { CreatorsRepository } from './creators.repository';

/**
 * What classroom keeps about a person (ADRs 0020, 0021, 0036): the audio lists, lesson plans and slide decks they
 * created.
 * - export: all three;
 * - a deleted person: their items stay with the district, anonymised (ADR 0020) — only an admin may then change or
 *   delete them. Each anonymised item's `classroom.*.updated` event (creatorId null) goes out through the outbox in
 *   the same transaction.
 */
@Injectable()
export class ClassroomPeopleData implements PeopleDataHolder {
  constructor(
    @Inject(CreatorsRepository) private readonly creators: CreatorsRepository,
    @Inject(OutboxService) private readonly outbox: OutboxService,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {}

  async exportSections(userId: string): Promise<UserExportSections> {
    return this.creators.createdBy(userId);
  }

  async forget(tx: EntityManager, userId: string): Promise<void> {
    const items = await this.creators.anonymise(tx, userId, M.formerMember);
    for (const audioList of items.audioLists)
      await this.outbox.enqueue(tx, Subjects.classroomAudioListUpdated, {
        audioList: { ...audioList, creatorId: null },
      } satisfies AudioListChangedEvent);
    for (const lessonPlan of items.lessonPlans)
      await this.outbox.enqueue(tx, Subjects.classroomLessonPlanUpdated, {
        lessonPlan: { ...lessonPlan, creatorId: null },
      } satisfies LessonPlanChangedEvent);
    for (const slide of items.slides)
      await this.outbox.enqueue(tx, Subjects.classroomSlideUpdated, {
        slide: { ...slide, creatorId: null },
      } satisfies GoogleSlideChangedEvent);
    const count = items.audioLists.length + items.lessonPlans.length + items.slides.length;
    if (count > 0)
      this.logger.info(
        {
          userId,
          audioLists: items.audioLists.length,
          lessonPlans: items.lessonPlans.length,
          slides: items.slides.length,
        },
        "deleted user's classroom items anonymised",
      );
  }
}

/** classroom in the registry (index.ts) and in its users module: it holds people's data; nothing of it is audited. */
export const CLASSROOM_PEOPLE_DATA: PeopleDataDeclaration = { audit: false, holder: ClassroomPeopleData };

import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import {
  ClassroomMessages as M,
  Subjects,
  type AudioListChangedEvent,
  type GoogleSlideChangedEvent,
  type LessonPlanChangedEvent,
  type UserChangedEvent,
  type UserDeletedEvent,
} from '@district/contracts';
import { BusContext, OutboxService, PLATFORM_LOGGER, type Logger } from '@district/nest-common';
import { CreatorsRepository } from './creators.repository';

export const USER_UPDATED_CONSUMER = 'classroom-user-updated';
export const USER_DELETED_CONSUMER = 'classroom-user-deleted';

/**
 * Keeps classroom's copies of people in step with identity, durably and exactly once (the platform's inbox entry
 * commits with the change made through `manager`):
 * - identity.user.updated: the creator name shown on their audio lists, lesson plans and slides;
 * - identity.user.deleted: their items stay with the district, anonymised (ADR 0020) — only an admin may then change
 *   or delete them. Each anonymised item's `classroom.*.updated` event (creatorId null) goes out through the outbox
 *   in the same transaction.
 */
@Controller()
export class UserEventsConsumer {
  constructor(
    @Inject(CreatorsRepository) private readonly creators: CreatorsRepository,
    @Inject(OutboxService) private readonly outbox: OutboxService,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {}

  @EventPattern(Subjects.identityUserUpdated, { durable: USER_UPDATED_CONSUMER })
  async userUpdated(
    @Payload() { user: { id, name } }: UserChangedEvent,
    @Ctx() { manager }: BusContext,
  ): Promise<void> {
    await this.creators.rename(manager, id.toLowerCase(), name);
  }

  @EventPattern(Subjects.identityUserDeleted, { durable: USER_DELETED_CONSUMER })
  async userDeleted(@Payload() { userId }: UserDeletedEvent, @Ctx() { manager }: BusContext): Promise<void> {
    const id = userId.toLowerCase();
    const items = await this.creators.anonymise(manager, id, M.formerMember);
    for (const audioList of items.audioLists)
      await this.outbox.enqueue(manager, Subjects.classroomAudioListUpdated, {
        audioList: { ...audioList, creatorId: null },
      } satisfies AudioListChangedEvent);
    for (const lessonPlan of items.lessonPlans)
      await this.outbox.enqueue(manager, Subjects.classroomLessonPlanUpdated, {
        lessonPlan: { ...lessonPlan, creatorId: null },
      } satisfies LessonPlanChangedEvent);
    for (const slide of items.slides)
      await this.outbox.enqueue(manager, Subjects.classroomSlideUpdated, {
        slide: { ...slide, creatorId: null },
      } satisfies GoogleSlideChangedEvent);
    const count = items.audioLists.length + items.lessonPlans.length + items.slides.length;
    if (count > 0)
      this.logger.info(
        {
          userId: id,
          audioLists: items.audioLists.length,
          lessonPlans: items.lessonPlans.length,
          slides: items.slides.length,
        },
        "deleted user's classroom items anonymised",
      );
  }
}

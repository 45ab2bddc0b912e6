import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { Subjects, type UserChangedEvent, type UserDeletedEvent } from '@district/contracts';
import { BusContext, PLATFORM_LOGGER, type Logger } from '@district/nest-common';
import { GradesRepository } from '../grades/grades.repository';
import { QuizzesRepository } from '../quizzes/quizzes.repository';
import { QuizzesService } from '../quizzes/quizzes.service';

export const USER_UPDATED_CONSUMER = 'assessment-user-updated';
export const USER_DELETED_CONSUMER = 'assessment-user-deleted';

/**
 * Keeps assessment's copies of people in step with identity, durably and exactly once (the platform's inbox
 * entry commits with the change made through `manager`):
 * - identity.user.updated: the name shown on their results;
 * - identity.user.deleted: their results and accommodations are removed (privacy); the quizzes they wrote stay,
 *   ownerless ('Former staff member'): administrators only (ADR 0033).
 */
@Controller()
export class UserEventsConsumer {
  constructor(
    @Inject(GradesRepository) private readonly grades: GradesRepository,
    @Inject(QuizzesRepository) private readonly quizzes: QuizzesRepository,
    @Inject(QuizzesService) private readonly quizService: QuizzesService,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {}

  @EventPattern(Subjects.identityUserUpdated, { durable: USER_UPDATED_CONSUMER })
  async userUpdated(
    @Payload() { user: { id, name } }: UserChangedEvent,
    @Ctx() { manager }: BusContext,
  ): Promise<void> {
    await this.grades.rename(manager, id.toLowerCase(), name);
  }

  @EventPattern(Subjects.identityUserDeleted, { durable: USER_DELETED_CONSUMER })
  async userDeleted(@Payload() { userId }: UserDeletedEvent, @Ctx() { manager }: BusContext): Promise<void> {
    const id = userId.toLowerCase();
    const removed = await this.grades.deleteAllOf(manager, id);
    await this.quizzes.deleteAccommodationsOf(manager, id);
    await this.quizService.disownAll(manager, id);
    if (removed > 0) this.logger.info({ userId: id, grades: removed }, "deleted user's results removed");
  }
}

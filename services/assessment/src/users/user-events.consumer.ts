import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { Subjects, type UserChangedEvent } from '@district/contracts';
import { BusContext, userDeletedDurable } from '@district/nest-common';
import { GradesRepository } from '../grades/grades.repository';

export const USER_UPDATED_CONSUMER = 'assessment-user-updated';
/** The erasure handler's durable (the platform's, AssessmentPeopleData.forget; ADR 0036). */
export const USER_DELETED_CONSUMER = userDeletedDurable('assessment');

/**
 * Keeps assessment's copies of people in step with identity, durably and exactly once (the platform's inbox
 * entry commits with the change made through `manager`): identity.user.updated renames them on their results.
 * A deleted person is the platform's business (AssessmentPeopleData.forget, ADR 0036).
 */
@Controller()
export class UserEventsConsumer {
  constructor(@Inject(GradesRepository) private readonly grades: GradesRepository) {}

  @EventPattern<string>(Subjects.identityUserUpdated, { durable: USER_UPDATED_CONSUMER })
  async userUpdated(
    @Payload() { user: { id, name } }: UserChangedEvent,
    @Ctx() { manager }: BusContext,
  ): Promise<void> {
    await this.grades.rename(manager, id.toLowerCase(), name);
  }
}

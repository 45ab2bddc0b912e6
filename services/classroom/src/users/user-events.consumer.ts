import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { Subjects, type UserChangedEvent } from '@district/contracts';
import { BusContext, userDeletedDurable } from '@district/nest-common';
import { CreatorsRepository } from './creators.repository';

export const USER_UPDATED_CONSUMER = 'classroom-user-updated';
/** The erasure handler's durable (the platform's, ClassroomPeopleData.forget; ADR 0036). */
export const USER_DELETED_CONSUMER = userDeletedDurable('classroom');

/**
 * Keeps classroom's copies of people in step with identity, durably and exactly once (the platform's inbox entry
 * commits with the change made through `manager`): identity.user.updated sets the creator name shown on their audio
 * lists, lesson plans and slides. A deleted person is the platform's business (ClassroomPeopleData.forget, ADR 0036).
 */
@Controller()
export class UserEventsConsumer {
  constructor(@Inject(CreatorsRepository) private readonly creators: CreatorsRepository) {}

  @EventPattern<string>(Subjects.identityUserUpdated, { durable: USER_UPDATED_CONSUMER })
  async userUpdated(
    @Payload() { user: { id, name } }: UserChangedEvent,
    @Ctx() { manager }: BusContext,
  ): Promise<void> {
    await this.creators.rename(manager, id.toLowerCase(), name);
  }
}

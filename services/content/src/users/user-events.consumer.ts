import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { Subjects, type UserChangedEvent } from '@district/contracts';
import { BusContext } from '@district/nest-common';
import { PeopleDataRepository } from './people-data.repository';

export const USER_UPDATED_CONSUMER = 'content-user-updated';

/**
 * Keeps content's copies of people in step with identity, durably (one delivery per service, retried until
 * handled) and exactly once (the platform's inbox entry commits with the change made through `manager`):
 * identity.user.updated renames the author on their posts and comments. A deleted person is the platform's
 * business (ContentPeopleData.forget, ADR 0036).
 */
@Controller()
export class UserEventsConsumer {
  constructor(@Inject(PeopleDataRepository) private readonly people: PeopleDataRepository) {}

  @EventPattern<string>(Subjects.identityUserUpdated, { durable: USER_UPDATED_CONSUMER })
  async userUpdated(
    @Payload() { user: { id, name } }: UserChangedEvent,
    @Ctx() { manager }: BusContext,
  ): Promise<void> {
    await this.people.rename(manager, id, name);
  }
}

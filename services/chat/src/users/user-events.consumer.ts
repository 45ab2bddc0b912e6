import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { Subjects, type UserDeletedEvent } from '@district/contracts';
import { BusContext, PLATFORM_LOGGER, type Logger } from '@district/nest-common';
import { ChatroomsService } from '../chatrooms/chatrooms.service';

export const USER_DELETED_CONSUMER = 'chat-user-deleted';

/**
 * identity.user.deleted: the person is taken off every room's invite list (privacy: no trace of them stays in
 * chat), durably and exactly once — the platform's inbox entry commits with the change made through `manager`,
 * and each room changed gets its chat.room.updated event in the same transaction.
 */
@Controller()
export class UserEventsConsumer {
  constructor(
    @Inject(ChatroomsService) private readonly chatrooms: ChatroomsService,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {}

  @EventPattern(Subjects.identityUserDeleted, { durable: USER_DELETED_CONSUMER })
  async userDeleted(@Payload() { userId }: UserDeletedEvent, @Ctx() { manager }: BusContext): Promise<void> {
    const rooms = await this.chatrooms.removeInvitee(manager, userId);
    if (rooms.length > 0)
      this.logger.info({ userId, rooms: rooms.length }, 'deleted user removed from chatrooms');
  }
}

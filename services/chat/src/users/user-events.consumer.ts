import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import {
  Subjects,
  type SessionEndedEvent,
  type UserChangedEvent,
  type UserDeletedEvent,
} from '@district/contracts';
import { BusContext, PLATFORM_LOGGER, PUBSUB, type Logger, type PubSub } from '@district/nest-common';
import { ChatroomsService } from '../chatrooms/chatrooms.service';
import { LiveKeys } from '../live/live-channels';

export const USER_DELETED_CONSUMER = 'chat-user-deleted';
export const USER_UPDATED_CONSUMER = 'chat-user-updated';
export const SESSION_ENDED_CONSUMER = 'chat-session-ended';

/**
 * identity.user.deleted: the person is taken off every room's invite list (privacy: no trace of them stays in
 * chat), durably and exactly once — the platform's inbox entry commits with the change made through `manager`,
 * and each room changed gets its chat.room.updated event in the same transaction. Their kept messages are
 * removed from every room's log and their sockets closed on every replica.
 *
 * identity.user.updated (suspended, re-roled, renamed…): every replica re-checks that person's sockets against
 * the shared session state and closes those whose session no longer holds (the client refreshes and rejoins,
 * or cannot).
 *
 * identity.session.ended (a sign-out): every replica closes the sockets opened on that session (4401) at once,
 * instead of at their next session check (ADR 0031).
 */
@Controller()
export class UserEventsConsumer {
  constructor(
    @Inject(ChatroomsService) private readonly chatrooms: ChatroomsService,
    @Inject(PUBSUB) private readonly pubsub: PubSub,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {}

  @EventPattern(Subjects.identityUserDeleted, { durable: USER_DELETED_CONSUMER })
  async userDeleted(@Payload() { userId }: UserDeletedEvent, @Ctx() { manager }: BusContext): Promise<void> {
    const rooms = await this.chatrooms.removeInvitee(manager, userId);
    if (rooms.length > 0)
      this.logger.info({ userId, rooms: rooms.length }, 'deleted user removed from chatrooms');
    // Shared state, idempotent: a redelivery removes nothing more. A failure throws, so the event comes again.
    const messages = await this.pubsub.removeFromLogs(
      LiveKeys.logPrefix,
      LiveKeys.authorMark(userId.toLowerCase()),
    );
    if (messages > 0) this.logger.info({ userId, messages }, "deleted user's chat messages removed");
    await this.chatrooms.tellReplicas({ kind: 'user', userId: userId.toLowerCase(), deleted: true });
  }

  @EventPattern(Subjects.identitySessionEnded, { durable: SESSION_ENDED_CONSUMER })
  async sessionEnded(@Payload() { userId, sessionId }: SessionEndedEvent): Promise<void> {
    await this.chatrooms.tellReplicas({ kind: 'session', userId: userId.toLowerCase(), sessionId });
  }

  @EventPattern(Subjects.identityUserUpdated, { durable: USER_UPDATED_CONSUMER })
  async userUpdated(@Payload() { user }: UserChangedEvent): Promise<void> {
    await this.chatrooms.tellReplicas({ kind: 'user', userId: user.id.toLowerCase(), deleted: false });
  }
}

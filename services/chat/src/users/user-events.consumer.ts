import { Controller, Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { Subjects, type SessionEndedEvent, type UserChangedEvent } from '@district/contracts';
import { userDeletedDurable } from '@district/nest-common';
import { ChatroomsService } from '../chatrooms/chatrooms.service';

/** The erasure handler's durable (the platform's, ChatPeopleData.forget; ADR 0036). */
export const USER_DELETED_CONSUMER = userDeletedDurable('chat');
export const USER_UPDATED_CONSUMER = 'chat-user-updated';
export const SESSION_ENDED_CONSUMER = 'chat-session-ended';

/**
 * identity.user.deleted is the platform's business (ChatPeopleData.forget, ADR 0036).
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
  constructor(@Inject(ChatroomsService) private readonly chatrooms: ChatroomsService) {}

  @EventPattern<string>(Subjects.identitySessionEnded, { durable: SESSION_ENDED_CONSUMER })
  async sessionEnded(@Payload() { userId, sessionId }: SessionEndedEvent): Promise<void> {
    await this.chatrooms.tellReplicas({ kind: 'session', userId: userId.toLowerCase(), sessionId });
  }

  @EventPattern<string>(Subjects.identityUserUpdated, { durable: USER_UPDATED_CONSUMER })
  async userUpdated(@Payload() { user }: UserChangedEvent): Promise<void> {
    await this.chatrooms.tellReplicas({ kind: 'user', userId: user.id.toLowerCase(), deleted: false });
  }
}

import { Inject, Injectable } from '@nestjs/common';
import type { UserExportSections } from '@district/contracts';
import {
  PLATFORM_LOGGER,
  PUBSUB,
  type Logger,
  type PeopleDataDeclaration,
  type PeopleDataHolder,
  type PubSub,
} from '@district/nest-common';
import type { EntityManager } from 'typeorm';
import { ChatroomsService } from '../chatrooms/chatrooms.service';
import { LiveKeys } from '../live-channels';
import { PeopleDataRepository } from './people-data.repository';

/**
 * What chat keeps about a person (ADRs 0018, 0021, 0036): the rooms they are invited to, and their messages still
 * in the rooms' logs (at most 200 per room, 24 h after the room's last message; nothing else is kept).
 * - export: both;
 * - a deleted person: taken off every room's invite list in the inbox transaction (each room changed gets its
 *   chat.room.updated event in it), their kept messages removed from every room's log and their sockets closed on
 *   every replica — no trace of them stays in chat.
 */
@Injectable()
export class ChatPeopleData implements PeopleDataHolder {
  constructor(
    @Inject(ChatroomsService) private readonly chatrooms: ChatroomsService,
    @Inject(PeopleDataRepository) private readonly people: PeopleDataRepository,
    @Inject(PUBSUB) private readonly pubsub: PubSub,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {}

  async exportSections(userId: string): Promise<UserExportSections> {
    const invitedTo = await this.people.invitedTo(userId);
    // Anyone who joined a room may have written in it (admins are never on invite lists): every room's log.
    const rooms = await this.people.rooms();
    const mark = LiveKeys.authorMark(userId);
    const messages: Record<string, unknown>[] = [];
    for (const room of rooms) {
      const { entries } = await this.pubsub.readLog(LiveKeys.log(room.id), 0);
      for (const { seq, entry } of entries) {
        if (!entry.startsWith(mark)) continue;
        let message: { name?: unknown; text?: unknown; timestamp?: unknown };
        try {
          message = JSON.parse(entry.slice(userId.length + 1)) as typeof message;
        } catch {
          continue; // not a message chat wrote (the mark is ours alone): nothing to report
        }
        messages.push({
          chatroomId: room.id,
          chatroomName: room.name,
          seq,
          name: message.name,
          text: message.text,
          timestamp: message.timestamp,
        });
      }
    }
    return { invitedTo, messages };
  }

  async forget(tx: EntityManager, userId: string): Promise<void> {
    const rooms = await this.chatrooms.removeInvitee(tx, userId);
    if (rooms.length > 0)
      this.logger.info({ userId, rooms: rooms.length }, 'deleted user removed from chatrooms');
    // Shared state, idempotent: a redelivery removes nothing more. A failure throws, so the event comes again.
    const messages = await this.pubsub.removeFromLogs(LiveKeys.logPrefix, LiveKeys.authorMark(userId));
    if (messages > 0) this.logger.info({ userId, messages }, "deleted user's chat messages removed");
    await this.chatrooms.tellReplicas({ kind: 'user', userId, deleted: true });
  }
}

/** chat in the registry (index.ts) and in its users module: chatroom changes are audited; it holds people's data. */
export const CHAT_PEOPLE_DATA: PeopleDataDeclaration = { audit: true, holder: ChatPeopleData };

import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { Subjects, type UserExportReply, type UserExportRequest } from '@district/contracts';
import { PUBSUB, type PubSub } from '@district/nest-common';
import { DataSource } from 'typeorm';
import { LiveKeys } from '../live/live-channels';

/**
 * chat's part of a person's right-of-access file (ADR 0021), asked by identity over the bus
 * (`chat.user.export.v1`): the rooms they are invited to, and their messages still kept in the rooms' logs
 * (ADR 0018: at most 200 per room, 24 h after the room's last message; nothing else is kept).
 */
@Controller()
export class UserExportResponder {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(PUBSUB) private readonly pubsub: PubSub,
  ) {}

  @MessagePattern(Subjects.chatUserExport)
  async answer({ userId }: UserExportRequest): Promise<UserExportReply> {
    const id = userId.toLowerCase();
    const invitedTo = (await this.dataSource.query(
      `SELECT id, name, description, is_active AS "isActive", created_at AS "createdAt"
         FROM chatrooms WHERE $1 = ANY (invited_user_ids) ORDER BY created_at, id`,
      [id],
    )) as Record<string, unknown>[];
    // Anyone who joined a room may have written in it (admins are never on invite lists): every room's log.
    const rooms = (await this.dataSource.query(`SELECT id, name FROM chatrooms ORDER BY created_at, id`)) as {
      id: string;
      name: string;
    }[];
    const mark = LiveKeys.authorMark(id);
    const messages: Record<string, unknown>[] = [];
    for (const room of rooms) {
      const { entries } = await this.pubsub.readLog(LiveKeys.log(room.id), 0);
      for (const { seq, entry } of entries) {
        if (!entry.startsWith(mark)) continue;
        let message: { name?: unknown; text?: unknown; timestamp?: unknown };
        try {
          message = JSON.parse(entry.slice(id.length + 1)) as typeof message;
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
    return { service: 'chat', sections: { invitedTo, messages } };
  }
}

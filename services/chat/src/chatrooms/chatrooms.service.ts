import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  auditRecord,
  Subjects,
  type AuditStamp,
  type Chatroom,
  type ChatroomChangedEvent,
  type ChatroomChanges,
  type ChatroomDeletedEvent,
  type ChatroomSummary,
  type NewChatroom,
  type RosterClassChangedEvent,
  uniqueUserIds,
} from '@district/contracts';
import {
  AuditTrail,
  OutboxService,
  PLATFORM_LOGGER,
  PUBSUB,
  RosterChanges,
  type AuthUser,
  type Logger,
  type PubSub,
} from '@district/nest-common';
import { ChatroomNotFoundError, ClassNotFoundError, ClassRoomInvitesError } from '../chat.errors';
import { LiveKeys, type LiveControlMessage } from '../live-channels';
import { AfterCommit } from './after-commit';
import { roomScopeOf } from './chatroom-rules';
import { ChatroomsRepository } from './chatrooms.repository';

/**
 * Chatrooms (spec §3, §4, §7): admins create, (de)activate, edit and delete them; signed-in people list the
 * active rooms they may join. Every change enqueues its `chat.room.*` event in the transaction that makes it.
 * Ids reach these methods canonical (the controller's IdParam, the contracts' schemas, the event's handler).
 *
 * A class room (issue #36) is invited by its class roster: made with the class's teachers and students, and
 * re-invited by every newer snapshot of the class chat's roster projection applies (`classChanged`).
 */
@Injectable()
export class ChatroomsService implements OnModuleInit {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(ChatroomsRepository) private readonly chatrooms: ChatroomsRepository,
    @Inject(OutboxService) private readonly outbox: OutboxService,
    @Inject(AuditTrail) private readonly audit: AuditTrail,
    @Inject(PUBSUB) private readonly pubsub: PubSub,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
    @Inject(RosterChanges) private readonly rosterChanges: RosterChanges,
    @Inject(AfterCommit) private readonly afterCommit: AfterCommit,
  ) {}

  onModuleInit(): void {
    this.rosterChanges.onClass((manager, event) => this.classChanged(manager, event));
  }

  /** Every room, newest first (admin). */
  listAll(): Promise<Chatroom[]> {
    return this.chatrooms.listAll();
  }

  /** The active rooms `viewer` may join, by name: all for teachers and admins, else those they are invited to. */
  listFor(viewer: AuthUser): Promise<ChatroomSummary[]> {
    return this.chatrooms.listActive(roomScopeOf(viewer));
  }

  /** Each change below takes the administrator's stamp (`by`), audited with the change (ADR 0021). */
  async create(input: NewChatroom, by?: AuditStamp): Promise<Chatroom> {
    const room = await this.dataSource.transaction(async (tx) => {
      if (input.classId !== undefined) {
        if (input.invitedUserIds.length > 0) throw new ClassRoomInvitesError();
        const members = await this.chatrooms.lockClassMembers(tx, input.classId);
        if (members === null) throw new ClassNotFoundError();
        input = { ...input, invitedUserIds: members };
      }
      const created = await this.chatrooms.insert(tx, input);
      await this.enqueueChanged(tx, Subjects.chatRoomCreated, created);
      if (by)
        await this.audit.record(
          tx,
          auditRecord(
            by,
            'chatroom.created',
            { type: 'chatroom', id: created.id, label: created.name },
            {
              invited: created.invitedUserIds.length,
              isActive: created.isActive,
              ...(created.classId === undefined ? {} : { classId: created.classId }),
            },
          ),
        );
      return created;
    });
    this.logger.info({ chatroomId: room.id, invited: room.invitedUserIds.length }, 'chatroom created');
    return room;
  }

  async update(id: string, changes: ChatroomChanges, by?: AuditStamp): Promise<Chatroom> {
    // A class room's invited list is its roster (a room's class never changes, so this read cannot go stale).
    if (changes.invitedUserIds !== undefined && (await this.chatrooms.findById(id))?.classId !== undefined)
      throw new ClassRoomInvitesError();
    const room = await this.dataSource.transaction(async (tx) => {
      const updated = await this.chatrooms.update(tx, id, changes);
      if (!updated) throw new ChatroomNotFoundError();
      await this.enqueueChanged(tx, Subjects.chatRoomUpdated, updated);
      if (by)
        await this.audit.record(
          tx,
          auditRecord(
            by,
            'chatroom.updated',
            { type: 'chatroom', id, label: updated.name },
            {
              changed: Object.keys(changes).sort(),
              ...(changes.isActive === undefined ? {} : { isActive: changes.isActive }),
            },
          ),
        );
      return updated;
    });
    this.logger.info({ chatroomId: id, changed: Object.keys(changes) }, 'chatroom updated');
    // Deactivated, or someone no longer invited: every replica closes the sockets that may not stay.
    await this.tellReplicas({ kind: 'room', roomId: id });
    return room;
  }

  async remove(id: string, by?: AuditStamp): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const name = by ? await this.chatrooms.nameOf(tx, id) : null;
      if (!(await this.chatrooms.delete(tx, id))) throw new ChatroomNotFoundError();
      await this.outbox.enqueue(tx, Subjects.chatRoomDeleted, { roomId: id } satisfies ChatroomDeletedEvent);
      if (by)
        await this.audit.record(
          tx,
          auditRecord(by, 'chatroom.deleted', { type: 'chatroom', id, label: name ?? '' }),
        );
    });
    this.logger.info({ chatroomId: id }, 'chatroom deleted');
    await this.tellReplicas({ kind: 'room', roomId: id });
    await this.pubsub
      .deleteLog(LiveKeys.log(id))
      .catch((err: unknown) => this.logger.warn({ err, chatroomId: id }, 'chat log not deleted'));
  }

  /**
   * After the change committed: the live chat's replicas re-check the affected sockets. Pub/sub may lose it
   * (Redis briefly away); joins always read the stored room, so a missed message leaves at most an open socket.
   */
  async tellReplicas(control: LiveControlMessage): Promise<void> {
    try {
      await this.pubsub.publish(LiveKeys.control, JSON.stringify(control));
    } catch (err) {
      this.logger.warn({ err, control }, 'chat replicas not told of a change');
    }
  }

  /**
   * Takes a (deleted) user off every invite list, in the caller's transaction, with an updated event for each
   * room changed. Answers the ids of those rooms.
   */
  async removeInvitee(tx: EntityManager, userId: string): Promise<string[]> {
    const rooms = await this.chatrooms.removeInvitee(tx, userId.toLowerCase());
    for (const room of rooms) await this.enqueueChanged(tx, Subjects.chatRoomUpdated, room);
    return rooms.map((room) => room.id);
  }

  /**
   * A newer snapshot of a class was applied (in the inbox transaction): its rooms are invited by its roster now,
   * teachers then students (nobody while the class has ended), each room changed with its updated event. Once
   * that commits, every replica re-checks those rooms' sockets, as after an administrator's change: a student
   * whose enrolment ended is put out of the room, and a join racing the change reads the room again.
   */
  async classChanged(tx: EntityManager, event: RosterClassChangedEvent): Promise<void> {
    const invited = event.active
      ? uniqueUserIds([...sorted(event.teacherIds), ...sorted(event.studentIds)])
      : [];
    const rooms = await this.chatrooms.setClassInvitees(tx, event.classId.toLowerCase(), invited);
    for (const room of rooms) await this.enqueueChanged(tx, Subjects.chatRoomUpdated, room);
    if (rooms.length === 0) return;
    this.logger.info(
      { classId: event.classId, rooms: rooms.length, invited: invited.length },
      'class chatrooms follow the roster',
    );
    this.afterCommit.run(tx, () => {
      for (const room of rooms) void this.tellReplicas({ kind: 'room', roomId: room.id });
    });
  }

  /** A demo room, unless it exists; enqueues its created event when inserted. Answers whether it was. */
  async seedDemo(tx: EntityManager, room: NewChatroom & { id: string }): Promise<boolean> {
    const created = await this.chatrooms.insertDemo(tx, room);
    if (created) await this.enqueueChanged(tx, Subjects.chatRoomCreated, created);
    return created !== null;
  }

  private async enqueueChanged(tx: EntityManager, subject: string, room: Chatroom): Promise<void> {
    await this.outbox.enqueue(tx, subject, { room } satisfies ChatroomChangedEvent);
  }
}

/** Ids lower-cased and in order (as the room's creation reads them from the projection). */
function sorted(ids: readonly string[]): string[] {
  return ids.map((id) => id.toLowerCase()).sort();
}

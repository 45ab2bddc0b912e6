import { ChatCloseCodes, ChatLiveMessages } from '@district/contracts';
import type { SessionStateStore } from '@district/nest-common';
import type { ChatroomsRepository } from '../chatrooms/chatrooms.repository';
import { mayJoin, type Joining } from './joining';
import type { LiveControlMessage } from '../live-channels';
import { closeWith, notice } from './live-frames';
import type { LiveConnection } from './live-connection';
import type { RoomDelivery } from './room-delivery';

/**
 * The control messages every replica hears (ADR 0018): a session signed out, a person changed or deleted, a room
 * changed. Each closes the sockets on this replica it concerns.
 */
export class LiveControl {
  constructor(
    private readonly sessions: SessionStateStore,
    private readonly chatrooms: ChatroomsRepository,
    private readonly rooms: RoomDelivery,
    private readonly joining: Joining,
    /** The hub's connections by person (lower-case id). */
    private readonly byUser: ReadonlyMap<string, Set<LiveConnection>>,
  ) {}

  async onControl(control: LiveControlMessage): Promise<void> {
    if (control.kind === 'session') {
      // Signed out (identity's event, after its commit): that session's sockets end, the person's others stay.
      for (const c of [...(this.byUser.get(control.userId.toLowerCase()) ?? [])])
        if (c.person.sessionId === control.sessionId)
          closeWith(
            c,
            ChatCloseCodes.sessionChanged,
            notice('session_changed', ChatLiveMessages.sessionChanged),
          );
      return;
    }
    if (control.kind === 'user') {
      const mine = [...(this.byUser.get(control.userId.toLowerCase()) ?? [])];
      for (const c of mine) {
        const state = control.deleted
          ? 'revoked'
          : await this.sessions.check(c.person.id, c.person.tokenVersion, c.person.sessionId);
        if (state === 'valid' || state === 'unknown') continue;
        closeWith(
          c,
          ChatCloseCodes.sessionChanged,
          notice('session_changed', ChatLiveMessages.sessionChanged),
        );
      }
      return;
    }
    this.joining.roomChanged();
    const local = this.rooms.get(control.roomId);
    if (!local) return;
    const room = await this.chatrooms.findById(control.roomId);
    for (const c of [...local.members]) {
      if (room && room.isActive && mayJoin(c.person, room)) continue;
      closeWith(
        c,
        ChatCloseCodes.roomClosed,
        notice('room_closed', ChatLiveMessages.roomClosed, control.roomId),
      );
    }
  }
}

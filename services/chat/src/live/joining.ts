import { randomBytes } from 'node:crypto';
import {
  ChatCloseCodes,
  ChatLiveMessages,
  type ChatJoin,
  type ChatPresenceEvent,
  type Chatroom,
} from '@district/contracts';
import { canonicalUuid, type EphemeralStore, type PubSub } from '@district/nest-common';
import type { FreshReads } from '../chatrooms/fresh-reads';
import type { AccountLimits } from './account-limits';
import { checkChatName } from './chat-names';
import { LiveKeys, parseMute } from '../live-channels';
import {
  closeWith,
  joinedFrame,
  notice,
  numbered,
  numberedFrame,
  presence,
  rejected,
  type SeatData,
} from './live-frames';
import type { LiveConnection, LivePerson, Membership } from './live-connection';
import { mutedAtJoin } from './moderation';
import type { RoomDelivery } from './room-delivery';
import { Roster } from './roster';

const RESUME_TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

/** Whether a person may be in a room: moderators anywhere, others where invited. */
export function mayJoin(person: LivePerson, room: Chatroom): boolean {
  return person.canModerate || room.invitedUserIds.includes(person.id);
}

/**
 * Joining and leaving rooms (ADR 0018): a name is a seat held by this replica, the joined answer carries the
 * room's participants and what the client missed, and arrivals and departures are announced (ADR 0031).
 */
export class Joining {
  /**
   * Room changes heard on the control channel, counted. A change closes the room's members when it is heard; a
   * join that read its room before a change and entered it after was not among them, so it reads the room again.
   */
  private roomChanges = 0;

  constructor(
    private readonly processId: string,
    private readonly pubsub: PubSub,
    private readonly store: EphemeralStore,
    private readonly limits: AccountLimits,
    /** Joins' reads of their room's row, shared by the joins waiting at once (a failover's rejoins). */
    private readonly roomReads: FreshReads<string, Chatroom | null>,
    private readonly rooms: RoomDelivery,
  ) {}

  /** A change to a room was heard on the control channel. */
  roomChanged(): void {
    this.roomChanges += 1;
  }

  async join(c: LiveConnection, join: ChatJoin): Promise<void> {
    if (!c.person.approved) return c.send(rejected(join, 'not_approved', ChatLiveMessages.notApproved));
    const wait = await this.limits.presence(c.person.id);
    if (wait > 0)
      return c.send({
        ...rejected(join, 'rate_limited', ChatLiveMessages.joinRateLimited),
        retryAfterMs: wait,
      });
    const name = checkChatName(join.name);
    if (!name.ok) return c.send(rejected(join, 'invalid_name', name.text));
    const roomId = canonicalUuid(join.chatroom);
    if (!roomId) return c.send(rejected(join, 'no_room', ChatLiveMessages.roomUnavailable));
    const changesBefore = this.roomChanges;
    const room = await this.roomReads.read(roomId);
    if (!room || !room.isActive) return c.send(rejected(join, 'no_room', ChatLiveMessages.roomUnavailable));
    if (!mayJoin(c.person, room)) return c.send(rejected(join, 'not_invited', ChatLiveMessages.notInvited));
    // A muted student may come in only under the name they were muted under (see `mutedAtJoin`).
    const until = await mutedAtJoin(this.store, c.person, roomId, name.seat);
    if (until !== null)
      return c.send({ ...rejected(join, 'muted', ChatLiveMessages.mutedJoin(until)), until });
    if (c.membership) await this.leave(c, true);

    const token = randomBytes(18).toString('base64url');
    const data: SeatData = { name: name.display, role: c.person.role, userId: c.person.id };
    const resume = join.resume !== undefined && RESUME_TOKEN.test(join.resume) ? join.resume : undefined;
    const claim = await this.store.claimSeat(
      LiveKeys.names(roomId),
      name.seat,
      { process: this.processId, token, data: JSON.stringify(data) },
      resume,
    );
    if (claim.taken)
      return c.send(rejected(join, 'name_taken', ChatLiveMessages.nameTaken(name.display), name.display));

    const membership: Membership = {
      roomId,
      name: name.display,
      seat: name.seat,
      token,
      lastSeq: 0,
      pending: [],
      mutedUntil: 0,
      slowModeSeconds: 0,
    };
    c.membership = membership;
    await this.rooms.enterRoom(roomId, c);
    if (this.roomChanges !== changesBefore && !(await this.mayStay(c, membership))) {
      // Deactivated, deleted or uninvited while this join was on its way in: closed as the members were. A seat
      // taken back with its token was announced before, so the room hears it go; a new one was never announced.
      await this.leave(c, claim.resumed);
      return closeWith(
        c,
        ChatCloseCodes.roomClosed,
        notice('room_closed', ChatLiveMessages.roomClosed, roomId),
      );
    }
    const [[muted, slow], log] = await Promise.all([
      this.store.mget([LiveKeys.mute(roomId, c.person.id), LiveKeys.slowMode(roomId)]),
      this.pubsub.readLog(LiveKeys.log(roomId), join.since ?? Number.MAX_SAFE_INTEGER),
    ]);
    const local = this.rooms.get(roomId);
    // The socket closed (or joined elsewhere) while this was read: its leave has run or will, nothing to send.
    if (c.membership !== membership || c.closing) return;
    membership.mutedUntil = parseMute(muted).until;
    membership.slowModeSeconds = Number(slow ?? 0);
    const roster = local?.roster ?? new Roster();
    const self = { name: name.display, role: c.person.role };
    const digest = roster.digestFor(name.seat, self);
    c.sendFrame(
      joinedFrame(
        roster,
        name.seat,
        {
          type: 'joined',
          chatroom: roomId,
          name: name.display,
          role: c.person.role,
          resume: token,
          seq: log.last,
          roster: digest,
          slowModeSeconds: membership.slowModeSeconds,
          canModerate: c.person.canModerate,
          ...(log.truncated || (join.since !== undefined && join.since > log.last)
            ? { truncated: true }
            : {}),
        },
        // The client shows this list already (a rejoin): it is not sent again.
        join.roster === digest,
      ),
    );
    let last = log.last;
    for (const entry of log.entries) {
      const frame = numberedFrame(entry.seq, entry.entry);
      if (frame) c.sendFrame(frame);
      last = Math.max(last, entry.seq);
    }
    membership.lastSeq = last;
    const pending = membership.pending ?? [];
    membership.pending = null;
    for (const m of pending) this.rooms.deliverNumbered(c, numbered(m));
    // A seat taken back with its token, unchanged, was never given up: the room saw no user_left, so it hears no
    // second user_joined (after a replica dies, its clients' rejoins would each tell the whole room again).
    if (!claim.resumed)
      await this.announce(roomId, c.person.id, presence('user_joined', membership, c.person.role));
  }

  /** A person's arrival or departure: a line for the room the first time in a while, else quiet (ADR 0031). */
  private async announce(
    roomId: string,
    userId: string,
    event: ChatPresenceEvent,
    quiet = false,
  ): Promise<void> {
    if (quiet || !(await this.limits.announces(roomId, userId, event.type))) event.quiet = true;
    await this.rooms.publishEvent(roomId, event);
  }

  /** Leaves the connection's room: its name comes free and (`announce`) the room hears user_left (`quiet`: no line). */
  async leave(c: LiveConnection, announce: boolean, quiet = false): Promise<void> {
    const m = c.membership;
    if (!m) return;
    c.membership = null;
    this.rooms.exitRoom(m.roomId, c);
    const released = await this.store.releaseSeat(LiveKeys.names(m.roomId), m.seat, m.token);
    if (released && announce)
      await this.announce(m.roomId, c.person.id, presence('user_left', m, c.person.role), quiet);
  }

  private mayJoin(person: LivePerson, room: Chatroom): boolean {
    return person.canModerate || room.invitedUserIds.includes(person.id);
  }

  /** Whether a member may stay, by a read of its room made now (after the change that asked). */
  private async mayStay(c: LiveConnection, membership: Membership): Promise<boolean> {
    const room = await this.roomReads.read(membership.roomId);
    // Gone meanwhile (closed, or joined elsewhere): its own leave has run or will.
    if (c.membership !== membership || c.closing) return true;
    return !!room && room.isActive && mayJoin(c.person, room);
  }
}

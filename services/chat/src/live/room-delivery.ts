import {
  ChatCloseCodes,
  ChatLiveMessages,
  type ChatPresenceEvent,
  type ChatSlowModeEvent,
} from '@district/contracts';
import type { EphemeralStore, Logger, PubSub } from '@district/nest-common';
import { LiveKeys } from '../live-channels';
import {
  applyPresence,
  closeWith,
  notice,
  numbered,
  numberedFrame,
  seatData,
  type Numbered,
} from './live-frames';
import { textFrame, type LiveConnection, type WireFrame } from './live-connection';
import { Roster } from './roster';

/** What a room's members on this replica share: one subscription to the room's channel. */
export interface LocalRoom {
  id: string;
  members: Set<LiveConnection>;
  ready: Promise<void>;
  unsubscribe?: () => Promise<void>;
  /** The highest message number heard on the channel (0: none yet). */
  lastSeq: number;
  /** While a gap is filled from the log, what arrives waits here. */
  repairing: string[] | null;
  /**
   * Who is in the room on every replica, by seat: read from the store once when the room opens here, then kept
   * from the user_joined / user_left events every replica publishes (and read again at each heartbeat, so a lost
   * pub/sub message is mended within seconds). A join answers its participants from it: O(1) reads per join
   * instead of reading every seat of the room.
   */
  roster: Roster;
  /** Events heard while the roster is being read, applied after it. */
  rosterEvents: ChatPresenceEvent[] | null;
  /** When the roster was last read from the store (ms). */
  rosterReadAt: number;
}

/**
 * The rooms with members on this replica (ADR 0018): one subscription to each room's channel, its roster, and the
 * delivery of what the channel carries to the room's sockets, in number order (gaps read from the log).
 */
export class RoomDelivery {
  private readonly rooms = new Map<string, LocalRoom>();
  /** Deliveries to sockets (metrics and the benchmark). */
  deliveries = 0;

  constructor(
    private readonly pubsub: PubSub,
    private readonly store: EphemeralStore,
    private readonly logger: Logger,
  ) {}

  get size(): number {
    return this.rooms.size;
  }

  get(roomId: string): LocalRoom | undefined {
    return this.rooms.get(roomId);
  }

  keys(): IterableIterator<string> {
    return this.rooms.keys();
  }

  async enterRoom(roomId: string, c: LiveConnection): Promise<void> {
    let room = this.rooms.get(roomId);
    if (!room) {
      const created: LocalRoom = {
        id: roomId,
        members: new Set(),
        ready: Promise.resolve(),
        lastSeq: 0,
        repairing: null,
        roster: new Roster(),
        rosterEvents: null,
        rosterReadAt: 0,
      };
      created.ready = this.pubsub
        .subscribe(LiveKeys.roomChannel(roomId), (message) => this.onRoomMessage(created, message))
        .then((unsubscribe) => {
          created.unsubscribe = unsubscribe;
          // Everyone left while subscribing.
          if (created.members.size === 0 && this.rooms.get(roomId) !== created) void unsubscribe();
        })
        // Subscribed first, so no event between the read and the subscription is missed.
        .then(() => this.readRoster(created));
      this.rooms.set(roomId, created);
      room = created;
    }
    room.members.add(c);
    await room.ready;
  }

  /** The room's seats from the store; presence events heard meanwhile are applied on top. */
  async readRoster(room: LocalRoom): Promise<void> {
    room.rosterEvents ??= [];
    room.rosterReadAt = Date.now();
    try {
      const seats = await this.store.seats(LiveKeys.names(room.id));
      room.roster.replace(
        seats.flatMap((s) => {
          const d = seatData(s.holder.data);
          return d ? [{ seat: s.seat, name: d.name, role: d.role }] : [];
        }),
      );
    } finally {
      const heard = room.rosterEvents ?? [];
      room.rosterEvents = null;
      for (const event of heard) applyPresence(room, event);
    }
  }

  exitRoom(roomId: string, c: LiveConnection): void {
    const room = this.rooms.get(roomId);
    if (!room || !room.members.delete(c) || room.members.size > 0) return;
    this.rooms.delete(roomId);
    if (room.unsubscribe) void room.unsubscribe().catch(() => undefined);
  }

  private onRoomMessage(room: LocalRoom, message: string): void {
    if (message.charCodeAt(0) !== 45 /* '-' */) return this.onNumbered(room, message);
    const json = message.slice(2);
    if (json.startsWith('{"type":"_')) return this.onInternal(room, json);
    let frame: WireFrame | undefined;
    let slow: ChatSlowModeEvent | undefined;
    let presenceAt = 0;
    if (json.startsWith('{"type":"slow_mode"')) slow = JSON.parse(json) as ChatSlowModeEvent;
    else if (json.startsWith('{"type":"user_joined"') || json.startsWith('{"type":"user_left"')) {
      const event = JSON.parse(json) as ChatPresenceEvent;
      if (room.rosterEvents) room.rosterEvents.push(event);
      else applyPresence(room, event);
      presenceAt = Date.now();
    }
    for (const c of room.members) {
      if (!c.membership) continue;
      if (slow) c.membership.slowModeSeconds = slow.seconds;
      frame ??= textFrame(json);
      // Presence may wait a moment to go with the next ones (a join storm); everything else goes at once.
      if (presenceAt) c.sendPresence(frame, presenceAt);
      else c.sendFrame(frame);
      this.deliveries++;
    }
  }

  /**
   * A numbered message from the channel. Numbers are published in order, so a jump means pub/sub lost some (its
   * delivery is at most once, e.g. while the subscriber reconnected): they are read from the log first. A number
   * lower than one heard means Redis lost the room's numbering: the members reconnect and start afresh.
   */
  private onNumbered(room: LocalRoom, message: string): void {
    if (room.repairing) {
      room.repairing.push(message);
      return;
    }
    const n = numbered(message);
    const seq = n.seq;
    if (room.lastSeq > 0 && seq > room.lastSeq + 1) {
      room.repairing = [message];
      void this.repair(room, room.lastSeq);
      return;
    }
    if (seq <= room.lastSeq) {
      this.logger.warn(
        { chatroomId: room.id, seq, heard: room.lastSeq },
        'chat numbering restarted; members reconnect',
      );
      room.lastSeq = seq;
      for (const c of [...room.members])
        closeWith(c, ChatCloseCodes.serviceRestart, notice('reconnect', ChatLiveMessages.reconnecting));
      return;
    }
    room.lastSeq = seq;
    // Every member gets the same bytes: the number is read once, the frame built for the first member and reused.
    for (const c of room.members) this.deliverNumbered(c, n);
  }

  private async repair(room: LocalRoom, after: number): Promise<void> {
    try {
      const read = await this.pubsub.readLog(LiveKeys.log(room.id), after);
      this.logger.warn(
        { chatroomId: room.id, after, recovered: read.entries.length },
        'chat messages missed on pub/sub, read from the log',
      );
      for (const entry of read.entries) {
        room.lastSeq = Math.max(room.lastSeq, entry.seq);
        const n = numbered(`${entry.seq} ${entry.entry}`);
        for (const c of room.members) this.deliverNumbered(c, n);
      }
    } catch (err) {
      this.logger.error({ err, chatroomId: room.id }, 'chat gap not repaired');
    }
    const waiting = room.repairing ?? [];
    room.repairing = null;
    for (const m of waiting) {
      const n = numbered(m);
      room.lastSeq = Math.max(room.lastSeq, n.seq);
      for (const c of room.members) this.deliverNumbered(c, n);
    }
  }

  /** A numbered message to one member: held while it catches up, skipped when it already has it. */
  deliverNumbered(c: LiveConnection, n: Numbered): void {
    const m = c.membership;
    if (!m) return;
    if (m.pending) {
      m.pending.push(n.message);
      return;
    }
    if (n.seq <= m.lastSeq) return;
    m.lastSeq = n.seq;
    if (n.frame === undefined) n.frame = numberedFrame(n.seq, n.message.slice(n.message.indexOf(' ') + 1));
    if (!n.frame) return;
    c.sendFrame(n.frame);
    this.deliveries++;
  }

  private onInternal(room: LocalRoom, json: string): void {
    const event = JSON.parse(json) as { type: string; userId?: string; until?: number };
    if (event.type !== '_mute' || typeof event.userId !== 'string') return;
    const until = Number(event.until ?? 0);
    for (const c of room.members) {
      if (!c.membership || c.person.id !== event.userId) continue;
      c.membership.mutedUntil = until;
      if (until === 0) c.send(notice('unmuted', ChatLiveMessages.unmuted, c.membership.roomId));
      else {
        const iso = new Date(until).toISOString();
        c.send({ ...notice('muted', ChatLiveMessages.muted(iso), c.membership.roomId), until: iso });
      }
    }
  }

  publishEvent(roomId: string, event: object): Promise<void> {
    return this.pubsub.publish(LiveKeys.roomChannel(roomId), `- ${JSON.stringify(event)}`);
  }
}

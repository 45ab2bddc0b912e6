import { ChatCloseCodes, ChatLiveMessages } from '@district/contracts';
import type { EphemeralStore, Logger, SessionStateStore } from '@district/nest-common';
import { LiveKeys } from '../live-channels';
import type { LiveConfig } from './live.config';
import { closeWith, notice, presenceOf, seatData } from './live-frames';
import type { LiveConnection } from './live-connection';
import type { RoomDelivery } from './room-delivery';
import { Sweep } from './sweep';

/**
 * This replica's timers (ADR 0018): its heartbeat (which keeps its seats held and frees dead replicas' seats), the
 * pings that drop dead sockets, the sessions checked again, and the cut-off of a client too slow to read.
 */
export class Liveness {
  private readonly pingSweep: Sweep;
  private readonly sessionSweep: Sweep;

  constructor(
    private readonly processId: string,
    private readonly store: EphemeralStore,
    private readonly sessions: SessionStateStore,
    private readonly config: LiveConfig,
    private readonly logger: Logger,
    /** The replica's open connections (the hub's set, read at each turn). */
    private readonly connections: ReadonlySet<LiveConnection>,
    private readonly rooms: RoomDelivery,
  ) {
    this.pingSweep = new Sweep(config.CHAT_PING_MS);
    this.sessionSweep = new Sweep(config.CHAT_SESSION_CHECK_MS);
  }

  /** The heartbeat, ping and session timers, started (unref'd); the caller clears them at stop. */
  start(): NodeJS.Timeout[] {
    const heartbeat = setInterval(() => void this.beat(), this.config.CHAT_HEARTBEAT_MS);
    const ping = setInterval(() => this.ping(), this.pingSweep.tickMs);
    const sessions = setInterval(() => void this.recheckSessions(), this.sessionSweep.tickMs);
    for (const t of [heartbeat, ping, sessions]) t.unref();
    return [heartbeat, ping, sessions];
  }

  async beat(): Promise<void> {
    try {
      await this.store.heartbeat(this.processId, this.config.CHAT_HEARTBEAT_MS * 3);
      // Names held by replicas that died: freed, and their rooms told (each seat reaped by one replica).
      for (const roomId of this.rooms.keys()) {
        for (const { holder } of await this.store.reapSeats(LiveKeys.names(roomId))) {
          const data = seatData(holder.data);
          if (data)
            await this.rooms.publishEvent(roomId, presenceOf('user_left', roomId, data.name, data.role));
        }
        const room = this.rooms.get(roomId);
        if (
          room &&
          !room.rosterEvents &&
          Date.now() - room.rosterReadAt >= this.config.CHAT_ROSTER_REFRESH_MS
        )
          await this.rooms.readRoster(room);
      }
    } catch (err) {
      this.logger.warn({ err }, 'chat heartbeat failed');
    }
  }

  /** This turn's slice of the sockets: dropped if they missed the last ping, pinged again otherwise. */
  ping(): void {
    const due = this.pingSweep.next();
    for (const c of this.connections) {
      if (!due(c.slot)) continue;
      if (!c.alive) {
        c.ws.terminate();
        continue;
      }
      c.alive = false;
      c.ws.ping();
    }
  }

  /** This turn's slice of the sockets, their sessions checked again a hundred at a time: a sign-out in another tab ends the chat too. */
  async recheckSessions(): Promise<void> {
    const due = this.sessionSweep.next();
    const all: LiveConnection[] = [];
    for (const c of this.connections) if (due(c.slot)) all.push(c);
    try {
      // One read of the store per 500 sockets (at 19,000 clients, a command per socket was 158 a second each).
      for (let i = 0; i < all.length; i += 500) {
        const batch = all.slice(i, i + 500);
        const states = await this.sessions.checkMany(
          batch.map((c) => ({
            userId: c.person.id,
            tokenVersion: c.person.tokenVersion,
            sid: c.person.sessionId,
          })),
        );
        batch.forEach((c, k) => {
          if (states[k] === 'revoked' || states[k] === 'stale')
            closeWith(
              c,
              ChatCloseCodes.sessionChanged,
              notice('session_changed', ChatLiveMessages.sessionChanged),
            );
        });
      }
    } catch (err) {
      this.logger.warn({ err }, 'chat session check failed');
    }
  }

  cutOff(c: LiveConnection): void {
    if (c.closing) return;
    c.closing = true;
    this.logger.warn({ userId: c.person.id, buffered: c.ws.bufferedAmount }, 'chat client too slow, cut off');
    c.ws.close(ChatCloseCodes.tooSlow, 'too slow');
    setTimeout(() => c.ws.terminate(), 1000).unref();
  }
}

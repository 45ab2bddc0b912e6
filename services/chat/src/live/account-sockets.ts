import { randomBytes } from 'node:crypto';
import type { EphemeralStore } from '@district/nest-common';
import { LiveKeys } from './live-channels';

/**
 * The cap on an account's open chat sockets across every replica (ADR 0031). Each socket holds a seat in its
 * account's group, held by this replica: a replica that dies stops holding its seats when its heartbeat runs out
 * (as the names in a room do), and one that stops gives them back.
 *
 * A socket's seat is named by when it came (then random), so that when many of one account's sockets arrive at
 * once, on any replicas, each reads the group after claiming and the earliest `max` of them are the ones that
 * stay — every reader ranks them alike. Two arrivals can both be refused where one might have stayed (each saw the
 * other), never both admitted beyond the cap.
 */
export class AccountSockets {
  /** The seat each admitted socket of this replica holds. */
  private readonly held = new Map<object, { userId: string; seat: string }>();

  constructor(
    private readonly store: EphemeralStore,
    private readonly processId: string,
    readonly max: number,
  ) {}

  /** Claims a place for `socket`; false (and nothing held) when its account has `max` sockets open already. */
  async admit(socket: object, userId: string): Promise<boolean> {
    const group = LiveKeys.sockets(userId);
    // Milliseconds in a fixed width sort as text; the random tail keeps two sockets of one millisecond apart.
    const seat = `${Date.now().toString(36).padStart(10, '0')}.${randomBytes(6).toString('base64url')}`;
    await this.store.claimSeat(group, seat, { process: this.processId, token: seat, data: '' });
    const ranked = (await this.store.seats(group)).map((s) => s.seat).sort();
    const place = ranked.indexOf(seat);
    if (place !== -1 && place < this.max) {
      this.held.set(socket, { userId, seat });
      return true;
    }
    await this.store.releaseSeat(group, seat, seat);
    return false;
  }

  /** Gives back `socket`'s place (closed, or the replica stopping). */
  async release(socket: object): Promise<void> {
    const held = this.held.get(socket);
    if (!held) return;
    this.held.delete(socket);
    await this.store.releaseSeat(LiveKeys.sockets(held.userId), held.seat, held.seat);
  }
}

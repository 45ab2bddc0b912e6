import { randomBytes } from 'node:crypto';
import type { EphemeralStore } from '@district/nest-common';
import { LiveKeys } from '../live-channels';

/**
 * The cap on an account's open chat sockets across every replica (ADR 0031): a counting semaphore of `max`
 * numbered seats ("0" … "max-1") in the account's group. Each claim of one seat is atomic in the store, so however
 * many of one account's sockets arrive at once, on any replicas and whatever their clocks, no seat is held twice and
 * never more than `max` sockets stay. A replica that dies stops holding its seats when its heartbeat runs out (as
 * the names in a room do), and one that stops gives them back.
 *
 * (A first version ranked timestamped seats and admitted the earliest `max`: a later arrival whose name sorted
 * before an admitted one — the same millisecond, or a replica whose clock is behind — was admitted too, over the cap.)
 */
export class AccountSockets {
  /** The seat each admitted socket of this replica holds, with the token that releases it. */
  private readonly held = new Map<object, { userId: string; seat: string; token: string }>();

  constructor(
    private readonly store: EphemeralStore,
    private readonly processId: string,
    readonly max: number,
  ) {}

  /** Claims a place for `socket`; false (and nothing held) when its account has `max` sockets open already. */
  async admit(socket: object, userId: string): Promise<boolean> {
    const group = LiveKeys.sockets(userId);
    const token = randomBytes(9).toString('base64url');
    // One read finds the free seats, so a usual connect costs two round trips; a seat taken since the read is
    // refused by its atomic claim and the next free one is tried.
    const held = new Set((await this.store.seats(group)).map((s) => s.seat));
    for (let slot = 0; slot < this.max; slot++) {
      const seat = String(slot);
      if (held.has(seat)) continue;
      const claim = await this.store.claimSeat(group, seat, { process: this.processId, token, data: '' });
      if (claim.taken === null) {
        this.held.set(socket, { userId, seat, token });
        return true;
      }
    }
    return false;
  }

  /** Gives back `socket`'s place (closed, or the replica stopping). */
  async release(socket: object): Promise<void> {
    const held = this.held.get(socket);
    if (!held) return;
    this.held.delete(socket);
    await this.store.releaseSeat(LiveKeys.sockets(held.userId), held.seat, held.token);
  }
}

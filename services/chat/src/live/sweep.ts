/**
 * Work done for every connection once a period (WebSocket pings, session re-checks), spread over the period in
 * slices of about a second instead of all at once: at 10,000 sockets a replica pinging every one in one loop stalls
 * its event loop for tens of milliseconds, and every message being fanned out then waits behind it (the p99 of
 * bench/reports/chat.md). Each connection has a fixed `slot`; a turn visits the connections of one slice, and every
 * slice comes round once a period, so each connection is still visited once a period.
 */
export class Sweep {
  /** Turns per period: one a second, at most 30; periods under 2 s keep a single turn (the tests' short ones). */
  readonly slices: number;
  /** How often `next` is called. */
  readonly tickMs: number;
  private turn = 0;

  constructor(periodMs: number) {
    this.slices = Math.min(30, Math.max(1, Math.floor(periodMs / 1000)));
    this.tickMs = periodMs / this.slices;
  }

  /** The next turn: which slots it visits. */
  next(): (slot: number) => boolean {
    const turn = this.turn;
    this.turn = (this.turn + 1) % this.slices;
    const slices = this.slices;
    return (slot) => slot % slices === turn;
  }
}

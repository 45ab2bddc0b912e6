import { chatParticipantHash, chatRosterAdd, chatRosterDigest, type ChatRole } from '@district/contracts';

interface Participant {
  name: string;
  role: ChatRole;
  /** `{"name":…,"role":…}`, made once when the seat is heard of. */
  json: string;
  /** Its share of the roster digest (`chatParticipantHash`). */
  hash: [number, number];
}

/**
 * Who is in a room on every replica, by seat, and the participants list each join is answered with. A join storm
 * is where a replica's memory goes: 950 joins to a room each answered with up to 950 participants (~50 KB). Built
 * as objects, arrays and a string per join, that was ~100 KB of short-lived heap per join, much of it promoted by
 * the scavenges it set off while other joins were mid-flight — and a replica's resident memory long after the
 * last join. Here each participant's JSON is made once; the list's bytes are kept until the roster next changes
 * (several joins between two presence events, and every rejoin after a replica dies, share them); and a join's
 * frame is written straight from them (`frameOf`): one buffer, no heap garbage. The roster's digest is kept as
 * seats come and go, so a rejoin whose client already shows this list is answered without it (`digestFor`).
 */
export class Roster {
  private readonly seats = new Map<string, Participant>();
  /** The participants' JSON, comma-separated, without brackets; null after a change until next asked for. */
  private listed: Buffer | null = null;
  /** The digest's two sums over every seat (`chatRosterAdd`). */
  private readonly sums: [number, number] = [0, 0];

  get size(): number {
    return this.seats.size;
  }

  set(seat: string, name: string, role: ChatRole): void {
    const had = this.seats.get(seat);
    if (had && had.name === name && had.role === role) return;
    if (had) chatRosterAdd(this.sums, had.hash, -1);
    const hash = chatParticipantHash({ name, role });
    chatRosterAdd(this.sums, hash);
    this.seats.set(seat, { name, role, json: JSON.stringify({ name, role }), hash });
    this.listed = null;
  }

  delete(seat: string): void {
    const had = this.seats.get(seat);
    if (!had) return;
    this.seats.delete(seat);
    chatRosterAdd(this.sums, had.hash, -1);
    this.listed = null;
  }

  /** The digest (`chatRosterDigestOf`) of the list `participantsFor(seat, self)` answers. */
  digestFor(seat: string, self: { name: string; role: ChatRole }): string {
    const held = this.seats.get(seat);
    if (held && held.name === self.name && held.role === self.role) return chatRosterDigest(this.sums);
    const sums: [number, number] = [this.sums[0], this.sums[1]];
    if (held) chatRosterAdd(sums, held.hash, -1);
    chatRosterAdd(sums, chatParticipantHash(self));
    return chatRosterDigest(sums);
  }

  /**
   * Everyone, from a fresh read of the store (every `CHAT_ROSTER_REFRESH_MS`): replaces what was here. What is
   * unchanged — nearly always all of it — keeps its JSON and the list its bytes.
   */
  replace(entries: readonly { seat: string; name: string; role: ChatRole }[]): void {
    const stale = new Set(this.seats.keys());
    for (const e of entries) {
      stale.delete(e.seat);
      this.set(e.seat, e.name, e.role);
    }
    for (const seat of stale) this.delete(seat);
  }

  /**
   * The participants a member joining on `seat` is answered with — the roster, with the member itself whose
   * user_joined is not out yet — as the parts of a JSON array, for `frameOf` to write into the `joined` frame.
   */
  participantsFor(seat: string, self: { name: string; role: ChatRole }): (string | Buffer)[] {
    const held = this.seats.get(seat);
    if (held && held.name === self.name && held.role === self.role) return ['[', this.list(), ']'];
    if (held) {
      // Held under another spelling or role (a stale roster): this one list is built without the cache.
      const others = [...this.seats].filter(([s]) => s !== seat).map(([, p]) => p.json);
      return [`[${[...others, JSON.stringify(self)].join(',')}]`];
    }
    const list = this.list();
    return ['[', list, list.length > 0 ? ',' : '', JSON.stringify(self), ']'];
  }

  private list(): Buffer {
    if (this.listed) return this.listed;
    let bytes = Math.max(0, this.seats.size - 1);
    for (const p of this.seats.values()) bytes += Buffer.byteLength(p.json);
    const listed = Buffer.allocUnsafeSlow(bytes);
    let at = 0;
    for (const p of this.seats.values()) {
      if (at > 0) listed[at++] = 0x2c; // ','
      at += listed.write(p.json, at);
    }
    this.listed = listed;
    return listed;
  }
}

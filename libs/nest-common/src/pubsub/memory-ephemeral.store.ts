import type { EphemeralStore, SeatClaim, SeatHolder } from './pubsub.port';
import { positiveTtl } from './ttl';

export interface MemoryEphemeralStoreOptions {
  /** Clock, replaceable for tests of expiry. */
  now?: () => number;
  /** Expired entries are also removed in the background, so memory does not grow with dead keys. */
  sweepIntervalMs?: number;
}

interface Entry {
  value: string;
  /** Epoch ms, or null for no TTL. */
  expiresAt: number | null;
}

/** The ephemeral store of standalone mode, with Redis's semantics (TTL in ms, lazy and swept expiry). */
export class MemoryEphemeralStore implements EphemeralStore {
  private readonly values = new Map<string, Entry>();
  /** setKey → member → expiry (epoch ms). */
  private readonly sets = new Map<string, Map<string, number>>();
  /** group → seat → holder. */
  private readonly seatGroups = new Map<string, Map<string, SeatHolder>>();
  /** process → alive until (epoch ms). */
  private readonly alive = new Map<string, number>();
  private readonly now: () => number;
  private readonly sweeper: NodeJS.Timeout;
  private closed = false;

  constructor(options: MemoryEphemeralStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this.sweeper = setInterval(() => this.sweep(), options.sweepIntervalMs ?? 30_000);
    this.sweeper.unref();
  }

  async get(key: string): Promise<string | null> {
    this.assertOpen();
    return this.live(key)?.value ?? null;
  }

  async mget(keys: string[]): Promise<(string | null)[]> {
    this.assertOpen();
    return keys.map((key) => this.live(key)?.value ?? null);
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    this.assertOpen();
    this.values.set(key, { value: String(value), expiresAt: this.expiry(ttlMs) });
  }

  async setIfAbsent(key: string, value: string, ttlMs?: number): Promise<boolean> {
    this.assertOpen();
    if (this.live(key)) return false;
    this.values.set(key, { value: String(value), expiresAt: this.expiry(ttlMs) });
    return true;
  }

  async mset(entries: Record<string, string>): Promise<void> {
    this.assertOpen();
    for (const [key, value] of Object.entries(entries))
      this.values.set(key, { value: String(value), expiresAt: null });
  }

  async del(key: string): Promise<void> {
    this.assertOpen();
    this.values.delete(key);
    this.sets.delete(key);
  }

  async incr(key: string, ttlMs: number): Promise<number> {
    this.assertOpen();
    const entry = this.live(key);
    if (!entry) {
      this.values.set(key, { value: '1', expiresAt: this.expiry(ttlMs) });
      return 1;
    }
    if (!/^-?\d+$/.test(entry.value)) throw new Error('value is not an integer');
    const next = Number(entry.value) + 1;
    entry.value = String(next);
    return next;
  }

  async takeToken(key: string, burst: number, intervalMs: number): Promise<number> {
    this.assertOpen();
    // GCRA, as the Redis store's script: the entry holds when the bucket is full again.
    const now = this.now();
    const interval = positiveTtl(intervalMs);
    const full = Math.max(Number(this.live(key)?.value ?? 0) || 0, now);
    const next = full + interval;
    const wait = next - now - burst * interval;
    if (wait > 0) return wait;
    this.values.set(key, { value: String(next), expiresAt: next });
    return 0;
  }

  async pttl(key: string): Promise<number> {
    this.assertOpen();
    const entry = this.live(key);
    if (entry) return entry.expiresAt === null ? -1 : entry.expiresAt - this.now();
    // A liveness set lives as long as its longest-lived member, as in the Redis adapter.
    const members = this.liveMembers(key);
    if (!members) return -2;
    return Math.max(...members.values()) - this.now();
  }

  async addMember(setKey: string, member: string, ttlMs: number): Promise<boolean> {
    this.assertOpen();
    let members = this.liveMembers(setKey);
    if (!members) {
      members = new Map();
      this.sets.set(setKey, members);
    }
    const absent = !members.has(member);
    members.set(member, this.now() + positiveTtl(ttlMs));
    return absent;
  }

  async removeMember(setKey: string, member: string): Promise<void> {
    this.assertOpen();
    const members = this.sets.get(setKey);
    if (!members) return;
    members.delete(member);
    if (members.size === 0) this.sets.delete(setKey);
  }

  async members(setKey: string): Promise<string[]> {
    this.assertOpen();
    return [...(this.liveMembers(setKey)?.keys() ?? [])];
  }

  async claimSeat(
    group: string,
    seat: string,
    holder: SeatHolder,
    takeOverFrom?: string,
  ): Promise<SeatClaim> {
    this.assertOpen();
    let seats = this.seatGroups.get(group);
    if (!seats) {
      seats = new Map();
      this.seatGroups.set(group, seats);
    }
    const current = seats.get(seat);
    if (current && current.token !== takeOverFrom && this.isAlive(current.process))
      return { taken: { ...current } };
    seats.set(seat, { ...holder });
    const resumed =
      current !== undefined &&
      takeOverFrom !== undefined &&
      current.token === takeOverFrom &&
      current.data === holder.data;
    return { taken: null, resumed };
  }

  async releaseSeat(group: string, seat: string, token: string): Promise<boolean> {
    this.assertOpen();
    const seats = this.seatGroups.get(group);
    if (seats?.get(seat)?.token !== token) return false;
    seats.delete(seat);
    if (seats.size === 0) this.seatGroups.delete(group);
    return true;
  }

  async seats(group: string): Promise<{ seat: string; holder: SeatHolder }[]> {
    this.assertOpen();
    return [...(this.seatGroups.get(group) ?? [])]
      .filter(([, holder]) => this.isAlive(holder.process))
      .map(([seat, holder]) => ({ seat, holder: { ...holder } }));
  }

  async reapSeats(group: string): Promise<{ seat: string; holder: SeatHolder }[]> {
    this.assertOpen();
    const seats = this.seatGroups.get(group);
    if (!seats) return [];
    const reaped: { seat: string; holder: SeatHolder }[] = [];
    for (const [seat, holder] of seats) {
      if (this.isAlive(holder.process)) continue;
      seats.delete(seat);
      reaped.push({ seat, holder });
    }
    if (seats.size === 0) this.seatGroups.delete(group);
    return reaped;
  }

  async heartbeat(process: string, ttlMs: number): Promise<void> {
    this.assertOpen();
    this.alive.set(process, this.now() + positiveTtl(ttlMs));
  }

  isReady(): boolean {
    return !this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    this.values.clear();
    this.sets.clear();
    this.seatGroups.clear();
    this.alive.clear();
  }

  private isAlive(process: string): boolean {
    const until = this.alive.get(process);
    return until !== undefined && until > this.now();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('the store is closed');
  }

  private expiry(ttlMs: number | undefined): number | null {
    return ttlMs === undefined ? null : this.now() + positiveTtl(ttlMs);
  }

  private live(key: string): Entry | undefined {
    const entry = this.values.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt !== null && entry.expiresAt <= this.now()) {
      this.values.delete(key);
      return undefined;
    }
    return entry;
  }

  /** The set with expired members pruned; undefined when nothing is left. */
  private liveMembers(setKey: string): Map<string, number> | undefined {
    const members = this.sets.get(setKey);
    if (!members) return undefined;
    const now = this.now();
    for (const [member, expiresAt] of members) if (expiresAt <= now) members.delete(member);
    if (members.size === 0) {
      this.sets.delete(setKey);
      return undefined;
    }
    return members;
  }

  private sweep(): void {
    for (const key of this.values.keys()) this.live(key);
    for (const key of this.sets.keys()) this.liveMembers(key);
    for (const [process, until] of this.alive) if (until <= this.now()) this.alive.delete(process);
  }
}

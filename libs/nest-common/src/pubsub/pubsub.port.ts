/**
 * Fast, non-durable messaging and shared ephemeral state (throttle counters, token versions,
 * chat presence). Redis in the cluster, memory in standalone. Nothing here must be the only copy
 * of data that matters: it may be lost on restart.
 */
/** A numbered log's shape: newest `keep` entries kept, dropped `ttlMs` after the last append. */
export interface NumberedLogOptions {
  keep: number;
  ttlMs: number;
  /**
   * The highest number the caller has seen of this log: the new entry is numbered above it even when the store
   * lost its numbers (a Redis restarted without persistence), so numbers never repeat for clients holding them.
   */
  floor?: number;
  /**
   * Appends at most once per `key` within `ttlMs` (a client sending a message again after a dropped connection,
   * not knowing whether the first try was appended): a repeat appends and publishes nothing, and the call answers
   * minus the first append's number. Checked and recorded in the same step as the append.
   */
  once?: { key: string; ttlMs: number };
}

/** An entry of a numbered log. */
export interface NumberedEntry {
  seq: number;
  entry: string;
}

/** What a numbered log holds after a number: the kept entries, and whether older ones were already dropped. */
export interface NumberedLogRead {
  entries: NumberedEntry[];
  /** The newest number given out (0 when none; numbers survive the entries' expiry). */
  last: number;
  /** True when some entries numbered after `after` are no longer kept (dropped by `keep` or expiry). */
  truncated: boolean;
}

export interface PubSub {
  publish(channel: string, message: string): Promise<void>;
  /**
   * Numbers `entry` with the next number of the log `key`, keeps it, and publishes `${seq} ${entry}` on
   * `channel` — as one step, so every subscriber receives a log's entries in number order whichever replica
   * appended them, and a reader of the log never misses an entry it was not sent (chat catch-up). Answers the
   * entry's number, or minus the earlier entry's number when `options.once` names an append already made.
   */
  appendAndPublish(channel: string, key: string, entry: string, options: NumberedLogOptions): Promise<number>;
  /** Kept entries numbered after `after`, oldest first. */
  readLog(key: string, after: number): Promise<NumberedLogRead>;
  /** Drops the entry numbered `seq`; true when it was kept. */
  removeFromLog(key: string, seq: number): Promise<boolean>;
  /** Drops, from every log whose key starts with `keyPrefix`, the entries containing `needle`; returns how many. */
  removeFromLogs(keyPrefix: string, needle: string): Promise<number>;
  /** Forgets the log, its numbers included. */
  deleteLog(key: string): Promise<void>;
  /** Returns a function that removes this subscription. */
  subscribe(channel: string, handler: (message: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface EphemeralStore {
  get(key: string): Promise<string | null>;
  mget(keys: string[]): Promise<(string | null)[]>;
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  /** Set only if absent; true when this call set it. */
  setIfAbsent(key: string, value: string, ttlMs?: number): Promise<boolean>;
  /** Many keys in one round trip (no TTL). */
  mset(entries: Record<string, string>): Promise<void>;
  del(key: string): Promise<void>;
  /** Atomically increment; the TTL is set when the key is created and not extended. Returns the new value. */
  incr(key: string, ttlMs: number): Promise<number>;
  /**
   * A token bucket every replica shares (a rate limit per person, not per connection): up to `burst` tokens,
   * one more every `intervalMs`. Takes one and answers 0, or answers the ms until one is there and takes nothing
   * (a refusal costs the caller no budget). One atomic step on the store's clock (GCRA: the key holds the moment
   * the bucket is full again, and expires then).
   */
  takeToken(key: string, burst: number, intervalMs: number): Promise<number>;
  /** Remaining lifetime in ms; -1 when the key has no TTL, -2 when it does not exist. */
  pttl(key: string): Promise<number>;
  /** Set members with per-member liveness: a member disappears when not refreshed within ttlMs. */
  addMember(setKey: string, member: string, ttlMs: number): Promise<boolean>;
  removeMember(setKey: string, member: string): Promise<void>;
  members(setKey: string): Promise<string[]>;
  /**
   * Seats: named places in a group (chat names in a room) held by one process each. `claimSeat` takes `seat` for
   * `holder` unless a live process holds it; a seat whose process stopped heartbeating (`heartbeat`) is free, so
   * a killed replica's seats come free without anyone cleaning up. A claim presenting the current holder's
   * token as `takeOverFrom` takes the seat over for the new holder (a client reconnecting, maybe to another
   * replica, keeps its name; the old holder's token no longer releases it). Says who kept the seat (`taken`), or
   * that the claimant has it — `resumed` when it took over a seat still held with that token and the same data
   * (the same holder back after a dropped connection or a dead replica: nobody needs telling it arrived).
   */
  claimSeat(group: string, seat: string, holder: SeatHolder, takeOverFrom?: string): Promise<SeatClaim>;
  /** Frees `seat` if `token` still holds it; true when it did. */
  releaseSeat(group: string, seat: string, token: string): Promise<boolean>;
  /** The seats held by live processes. */
  seats(group: string): Promise<{ seat: string; holder: SeatHolder }[]>;
  /** Frees the seats of processes that stopped heartbeating; returns them (each once, to one caller). */
  reapSeats(group: string): Promise<{ seat: string; holder: SeatHolder }[]>;
  /** Marks `process` alive for `ttlMs`; its seats count as held while it is. */
  heartbeat(process: string, ttlMs: number): Promise<void>;
  isReady(): boolean;
  close(): Promise<void>;
}

/** Who holds a seat: the process, the holder's own token (for release and take-over) and data shown to others. */
export interface SeatHolder {
  process: string;
  token: string;
  data: string;
}

/** What `claimSeat` came to. */
export type SeatClaim = { taken: SeatHolder } | { taken: null; resumed: boolean };

export const PUBSUB = Symbol('PUBSUB');
export const EPHEMERAL_STORE = Symbol('EPHEMERAL_STORE');

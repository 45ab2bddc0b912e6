/**
 * Fast, non-durable messaging and shared ephemeral state (throttle counters, token versions,
 * chat presence). Redis in the cluster, memory in standalone. Nothing here must be the only copy
 * of data that matters: it may be lost on restart.
 */
export interface PubSub {
  publish(channel: string, message: string): Promise<void>;
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
  /** Remaining lifetime in ms; -1 when the key has no TTL, -2 when it does not exist. */
  pttl(key: string): Promise<number>;
  /** Set members with per-member liveness: a member disappears when not refreshed within ttlMs. */
  addMember(setKey: string, member: string, ttlMs: number): Promise<boolean>;
  removeMember(setKey: string, member: string): Promise<void>;
  members(setKey: string): Promise<string[]>;
  isReady(): boolean;
  close(): Promise<void>;
}

export const PUBSUB = Symbol('PUBSUB');
export const EPHEMERAL_STORE = Symbol('EPHEMERAL_STORE');

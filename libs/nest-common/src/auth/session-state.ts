import type { EphemeralStore } from '../pubsub/pubsub.port';
import { canonicalUuid } from '../http/params';

// Keys use the canonical (lower-case) id whatever spelling a caller passes, so a write and a read always meet.
const versionKey = (userId: string) => `auth:tv:${canonicalUuid(userId) ?? userId}`;
const revokedKey = (sid: string) => `auth:revoked:${sid}`;
/** Present while the store holds the full session state identity last wrote (ADR 0011). */
export const SESSION_STATE_MARKER = 'auth:state:warmed';
export const DELETED_USER = 'deleted';

/**
 * - valid: the token may be used.
 * - stale: the user changed since it was signed (`/api/auth/me` re-issues it).
 * - revoked: signed out, deleted, or a user the state does not know.
 * - unknown: the store has lost its state (a restart) and identity has not restored it yet: nothing can be
 *   decided, so nothing is let through (the guard answers 503 and the client retries).
 */
export type TokenState = 'valid' | 'stale' | 'revoked' | 'unknown';

/** What a session token says of itself: whose, which version of the user it was signed for, which session. */
export interface SessionToken {
  userId: string;
  tokenVersion: number;
  sid: string;
}

/**
 * The shared record of which tokens still count: identity writes every user's token version (on every change
 * to approval, role, admin flag, password or existence, and all of them at start) and every signed-out session,
 * and every service's guard reads it on each request — one round trip to the shared store, no call to identity.
 *
 * The store may be emptied by a restart (Redis keeps nothing on disk here; standalone's store is memory). A
 * missing entry therefore never means "valid": the marker tells a restored store from an emptied one, and
 * identity restores versions and revocations from its database whenever the marker is gone.
 */
export class SessionStateStore {
  constructor(private readonly store: EphemeralStore) {}

  async check(userId: string, tokenVersion: number, sid: string): Promise<TokenState> {
    const [state] = await this.checkMany([{ userId, tokenVersion, sid }]);
    return state;
  }

  /**
   * `check` for many tokens in one read of the store (a replica's sweep over its sockets: one command for a
   * slice of them instead of one each), in their order.
   */
  async checkMany(tokens: readonly SessionToken[]): Promise<TokenState[]> {
    if (tokens.length === 0) return [];
    const [marker, ...values] = await this.store.mget([
      SESSION_STATE_MARKER,
      ...tokens.flatMap((t) => [versionKey(t.userId), revokedKey(t.sid)]),
    ]);
    if (marker === null) return tokens.map(() => 'unknown');
    return tokens.map((t, i) => {
      const [version, revoked] = [values[2 * i], values[2 * i + 1]];
      if (revoked !== null || version === null || version === DELETED_USER) return 'revoked';
      return Number(version) === t.tokenVersion ? 'valid' : 'stale';
    });
  }

  setVersion(userId: string, version: number): Promise<void> {
    return this.store.set(versionKey(userId), String(version));
  }

  markDeleted(userId: string): Promise<void> {
    return this.store.set(versionKey(userId), DELETED_USER);
  }

  /** Sign-out: refused until `untilMs`, the end of the session's absolute lifetime (every refreshed copy too). */
  revokeSession(sid: string, untilMs: number): Promise<void> {
    const ttl = Math.max(1000, untilMs - Date.now());
    return this.store.set(revokedKey(sid), '1', ttl);
  }

  async warm(versions: Record<string, number>): Promise<void> {
    const entries = Object.fromEntries(
      Object.entries(versions).map(([id, v]) => [versionKey(id), String(v)]),
    );
    if (Object.keys(entries).length) await this.store.mset(entries);
  }

  isRestored(): Promise<boolean> {
    return this.store.get(SESSION_STATE_MARKER).then((v) => v !== null);
  }

  /** Written by identity last, after every version and revocation is back in the store. */
  markRestored(): Promise<void> {
    return this.store.set(SESSION_STATE_MARKER, new Date().toISOString());
  }
}

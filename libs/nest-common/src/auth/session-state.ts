import type { EphemeralStore } from '../pubsub/pubsub.port';

const versionKey = (userId: string) => `auth:tv:${userId}`;
const revokedKey = (sid: string) => `auth:revoked:${sid}`;
export const DELETED_USER = 'deleted';

export type TokenState = 'valid' | 'stale' | 'revoked';

/**
 * The shared record of which tokens still count: identity writes a user's token version whenever their
 * approval, role, admin flag, password or existence changes, and every service's guard reads it on each
 * request — one round trip to the shared store, no call to identity. A missing entry means "no change
 * known", so the signature and expiry decide (the store may be emptied by a restart; identity re-warms it).
 */
export class SessionStateStore {
  constructor(private readonly store: EphemeralStore) {}

  async check(userId: string, tokenVersion: number, sid: string): Promise<TokenState> {
    const [version, revoked] = await this.store.mget([versionKey(userId), revokedKey(sid)]);
    if (revoked !== null) return 'revoked';
    if (version === null) return 'valid';
    if (version === DELETED_USER) return 'revoked';
    return Number(version) === tokenVersion ? 'valid' : 'stale';
  }

  setVersion(userId: string, version: number): Promise<void> {
    return this.store.set(versionKey(userId), String(version));
  }

  markDeleted(userId: string): Promise<void> {
    return this.store.set(versionKey(userId), DELETED_USER);
  }

  /** Sign-out: the token stays refused until it would have expired anyway. */
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
}

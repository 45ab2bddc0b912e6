import type { EphemeralStore } from '../pubsub/pubsub.port';
import type { AuthKeys } from '../runtime/runtime';
import { SessionStateStore } from './session-state';
import { SESSION_COOKIE, TokenService } from './token.service';

/**
 * - valid: a well-signed token whose session still counts.
 * - none: no cookie, a bad or expired token, or a stale or revoked session (sign in again, or `/api/auth/me`).
 * - unavailable: the shared session state is being restored; nothing can be decided (answer 503, retry).
 */
export type SessionCheck =
  { status: 'valid'; userId: string } | { status: 'none' } | { status: 'unavailable' };

/** The value of one cookie in a `Cookie` header, or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1 || part.slice(0, eq).trim() !== name) continue;
    const raw = part
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    try {
      return decodeURIComponent(raw);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * The session check of the AuthGuard, for a `Cookie` header outside Nest (the gateway's WebSocket upgrades):
 * the token is verified locally and its state read from the shared store, one round trip, no call to identity.
 */
export function sessionCookieAuthenticator(
  keys: AuthKeys,
  store: EphemeralStore,
): (cookieHeader: string | undefined) => Promise<SessionCheck> {
  const tokens = new TokenService({ publicKeyPem: keys.publicKeyPem });
  const sessions = new SessionStateStore(store);
  return async (cookieHeader) => {
    const claims = await tokens.verify(readCookie(cookieHeader, SESSION_COOKIE));
    if (!claims) return { status: 'none' };
    const userId = claims.sub.toLowerCase();
    const state = await sessions.check(userId, claims.tv, claims.sid);
    if (state === 'unknown') return { status: 'unavailable' };
    return state === 'valid' ? { status: 'valid', userId } : { status: 'none' };
  };
}

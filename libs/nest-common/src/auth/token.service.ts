import { randomUUID, type KeyObject as PublicKey } from 'node:crypto';
import { importPKCS8, SignJWT, type CryptoKey, type KeyObject } from 'jose';
import { sessionClaimsSchema, type SessionClaims } from '@district/contracts';
import type { AuthKeys } from '../runtime/runtime';
import { es256PublicKey, verifyEs256Jwt } from './es256-jwt';

export const SESSION_COOKIE = 'district_session';
export const TOKEN_ALG = 'ES256';
export const TOKEN_ISSUER = 'district-identity';
/** Sliding lifetime: GET /api/auth/me re-issues, so an active user stays signed in. */
export const TOKEN_TTL_SECONDS = 8 * 60 * 60;
/**
 * Absolute lifetime of a session from its sign-in, whatever the refreshes: a school day and its evening, so a
 * session left open on a shared device ends by the next day (ADR 0011). Sign-out revocations are kept this long.
 */
export const MAX_SESSION_AGE_SECONDS = 24 * 60 * 60;
/** Clock difference tolerated between the signing and verifying processes. */
const CLOCK_SKEW_SECONDS = 60;

export interface VerifiedToken extends SessionClaims {
  iat: number;
  exp: number;
}

/** Signs (identity only) and verifies session tokens with an asymmetric key, so no service calls identity per request. */
export class TokenService {
  private publicKey?: PublicKey;
  private privateKey?: CryptoKey | KeyObject;
  /**
   * Tokens whose signature was already checked. The same bytes stay well-signed until they expire, and an
   * ES256 verify costs ~0.18 ms (0.32 through jose's WebCrypto, `es256-jwt.ts`) — the largest share of a guarded
   * request (bench/reports/gateway.md). Revocation does not depend on this: the guard still checks the session
   * state on every request.
   */
  private readonly verified = new Map<string, VerifiedToken>();
  private static readonly VERIFIED_CACHE_SIZE = 10_000;

  constructor(private readonly keys: AuthKeys) {}

  /**
   * A new session (no `sid`/`sst`) or a refresh of one (both copied from the old token): the expiry slides, but
   * never past the session's absolute end.
   */
  async sign(
    claims: Omit<SessionClaims, 'sid' | 'sst'> & { sid?: string; sst?: number },
  ): Promise<{ token: string; sid: string; expiresAt: Date }> {
    if (!this.keys.privateKeyPem)
      throw new Error('This process holds no signing key (only identity signs tokens)');
    this.privateKey ??= await importPKCS8(this.keys.privateKeyPem, TOKEN_ALG);
    const { sub, sid = randomUUID(), sst, ...rest } = claims;
    const now = Math.floor(Date.now() / 1000);
    const started = sst ?? now;
    const exp = Math.min(now + TOKEN_TTL_SECONDS, sessionEnd(started));
    if (exp <= now) throw new Error('The session has reached its maximum age');
    const token = await new SignJWT({ ...rest, sid, sst: started })
      .setProtectedHeader({ alg: TOKEN_ALG })
      .setSubject(sub)
      .setIssuer(TOKEN_ISSUER)
      .setIssuedAt(now)
      .setExpirationTime(exp)
      .sign(this.privateKey);
    return { token, sid, expiresAt: new Date(exp * 1000) };
  }

  /** Returns the claims of a well-signed, unexpired token, or null. Never throws on bad input. */
  async verify(token: string | undefined): Promise<VerifiedToken | null> {
    if (!token || token.length > 4096) return null;
    const cached = this.verified.get(token);
    if (cached) {
      if (cached.exp * 1000 > Date.now() && sessionEnd(cached.sst) * 1000 > Date.now()) return cached;
      this.verified.delete(token);
    }
    try {
      this.publicKey ??= es256PublicKey(this.keys.publicKeyPem);
      const now = Date.now() / 1000;
      const payload = verifyEs256Jwt(token, this.publicKey, TOKEN_ISSUER, Math.floor(now));
      if (!payload) return null;
      const claims = sessionClaimsSchema.safeParse(payload);
      if (!claims.success || typeof payload.iat !== 'number' || typeof payload.exp !== 'number') return null;
      // A session's start cannot be in the future, nor its end in the past, whatever `exp` says.
      if (claims.data.sst > now + CLOCK_SKEW_SECONDS || sessionEnd(claims.data.sst) <= now) return null;
      const verified = { ...claims.data, iat: payload.iat, exp: payload.exp };
      this.remember(token, verified);
      return verified;
    } catch {
      return null;
    }
  }

  private remember(token: string, verified: VerifiedToken): void {
    if (this.verified.size >= TokenService.VERIFIED_CACHE_SIZE) {
      // Maps iterate in insertion order: drop the oldest entry.
      const oldest = this.verified.keys().next().value;
      if (oldest !== undefined) this.verified.delete(oldest);
    }
    this.verified.set(token, verified);
  }
}

/** When a session that began at `sst` (seconds) ends for good. */
export function sessionEnd(sst: number): number {
  return sst + MAX_SESSION_AGE_SECONDS;
}

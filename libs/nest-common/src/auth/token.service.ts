import { randomUUID } from 'node:crypto';
import { importPKCS8, importSPKI, jwtVerify, SignJWT, type CryptoKey, type KeyObject } from 'jose';
import { sessionClaimsSchema, type SessionClaims } from '@district/contracts';
import type { AuthKeys } from '../runtime/runtime';

export const SESSION_COOKIE = 'district_session';
export const TOKEN_ALG = 'ES256';
export const TOKEN_ISSUER = 'district-identity';
/** Sliding lifetime: GET /api/auth/me re-issues, so an active user stays signed in. */
export const TOKEN_TTL_SECONDS = 8 * 60 * 60;

export interface VerifiedToken extends SessionClaims {
  iat: number;
  exp: number;
}

/** Signs (identity only) and verifies session tokens with an asymmetric key, so no service calls identity per request. */
export class TokenService {
  private publicKey?: CryptoKey | KeyObject;
  private privateKey?: CryptoKey | KeyObject;

  constructor(private readonly keys: AuthKeys) {}

  async sign(claims: Omit<SessionClaims, 'sid'> & { sid?: string }): Promise<{ token: string; sid: string; expiresAt: Date }> {
    if (!this.keys.privateKeyPem) throw new Error('This process holds no signing key (only identity signs tokens)');
    this.privateKey ??= await importPKCS8(this.keys.privateKeyPem, TOKEN_ALG);
    const sid = claims.sid ?? randomUUID();
    const { sub, ...rest } = claims;
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ ...rest, sid })
      .setProtectedHeader({ alg: TOKEN_ALG })
      .setSubject(sub)
      .setIssuer(TOKEN_ISSUER)
      .setIssuedAt(now)
      .setExpirationTime(now + TOKEN_TTL_SECONDS)
      .sign(this.privateKey);
    return { token, sid, expiresAt: new Date((now + TOKEN_TTL_SECONDS) * 1000) };
  }

  /** Returns the claims of a well-signed, unexpired token, or null. Never throws on bad input. */
  async verify(token: string | undefined): Promise<VerifiedToken | null> {
    if (!token || token.length > 4096) return null;
    try {
      this.publicKey ??= await importSPKI(this.keys.publicKeyPem, TOKEN_ALG);
      const { payload } = await jwtVerify(token, this.publicKey, { issuer: TOKEN_ISSUER, algorithms: [TOKEN_ALG] });
      const claims = sessionClaimsSchema.safeParse(payload);
      if (!claims.success || typeof payload.iat !== 'number' || typeof payload.exp !== 'number') return null;
      return { ...claims.data, iat: payload.iat, exp: payload.exp };
    } catch {
      return null;
    }
  }
}

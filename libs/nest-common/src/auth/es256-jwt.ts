import { createPublicKey, verify, type KeyObject } from 'node:crypto';

/** A P-256 public key (SPKI PEM) for `verifyEs256Jwt`; throws if the PEM holds any other kind of key. */
export function es256PublicKey(pem: string): KeyObject {
  const key = createPublicKey(pem);
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1')
    throw new Error('The session public key must be an EC P-256 key (ES256)');
  return key;
}

const SEGMENT = /^[A-Za-z0-9_-]+$/;
/** An ES256 signature: r and s, 32 bytes each (JWS's raw form, not DER). */
const SIGNATURE_BYTES = 64;

/**
 * The claims of a compact JWS signed with ES256 by `key`, or null: what jose's `jwtVerify(token, key, { issuer,
 * algorithms: ['ES256'] })` accepts, with the signature checked by `node:crypto` (jose 6 checks it through
 * WebCrypto, at almost twice the CPU: 315–320 µs a token against 172–184 µs, `npm run bench:hot-path -w bench`). A chat replica that
 * takes back thousands of sockets after a failover verifies each one's token once.
 *
 * Exactly three base64url segments; a protected header that is a JSON object with `alg` ES256 and no `crit` or `b64`
 * (identity sets neither; jose accepts `crit: ["b64"]` with `b64: true`, this refuses it); a signature of 64 bytes that
 * `key` verifies; a payload that is a JSON object whose `iss` is `issuer`, whose `iat`, `nbf` and `exp`, where present,
 * are numbers, with `nbf` not after `nowSeconds` and `exp` after it. A test compares it with jose over malformed,
 * tampered and foreign tokens (`es256-jwt.spec.ts`).
 */
export function verifyEs256Jwt(
  token: string,
  key: KeyObject,
  issuer: string,
  nowSeconds: number,
): Record<string, unknown> | null {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((p) => SEGMENT.test(p))) return null;
  const [header, payload, signature] = parts;
  const h = jsonObject(header);
  if (!h || h.alg !== 'ES256' || 'crit' in h || 'b64' in h) return null;
  const sig = Buffer.from(signature, 'base64url');
  if (sig.length !== SIGNATURE_BYTES) return null;
  if (
    !verify('sha256', Buffer.from(`${header}.${payload}`, 'ascii'), { key, dsaEncoding: 'ieee-p1363' }, sig)
  )
    return null;
  const claims = jsonObject(payload);
  if (!claims || claims.iss !== issuer) return null;
  for (const name of ['iat', 'nbf', 'exp'] as const)
    if (name in claims && typeof claims[name] !== 'number') return null;
  if (typeof claims.nbf === 'number' && claims.nbf > nowSeconds) return null;
  if (typeof claims.exp === 'number' && claims.exp <= nowSeconds) return null;
  return claims;
}

function jsonObject(segment: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

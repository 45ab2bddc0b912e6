import { createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import { importSPKI, jwtVerify, SignJWT } from 'jose';
import { testKeys } from '../testing';
import { es256PublicKey, verifyEs256Jwt } from './es256-jwt';

const ISSUER = 'district-identity';
const NOW = 1_800_000_000;
const keys = testKeys();
const privateKey = createPrivateKey(keys.privateKeyPem as string);
const publicKey = es256PublicKey(keys.publicKeyPem);

const b64 = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** A compact JWS of any header and payload, signed with the test key (or `key`) in JWS's raw r‖s form. */
function jws(header: unknown, payload: unknown, key = privateKey): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

const good = { iss: ISSUER, sub: 'u1', iat: NOW - 10, exp: NOW + 100 };
const es256 = { alg: 'ES256' };
const foreign = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;

/** Tokens jose and this module must judge alike: well-formed, tampered, malformed, foreign, expired... */
function cases(): [string, string][] {
  // ECDSA signatures are random: one without '-' or '_' would read the same in base64 as in base64url, and the
  // "base64 not base64url" case below would be the well-formed token again (about 1 signing in 15).
  let ok = jws(es256, good);
  while (!/[-_]/.test(ok.split('.')[2])) ok = jws(es256, good);
  const [h, p, s] = ok.split('.');
  const flipped = Buffer.from(s, 'base64url');
  flipped[10] ^= 1;
  return [
    ['well-formed', ok],
    ['with typ and kid', jws({ alg: 'ES256', typ: 'JWT', kid: 'k1' }, good)],
    ['without iat, nbf or exp', jws(es256, { iss: ISSUER })],
    ['nbf now', jws(es256, { ...good, nbf: NOW })],
    ['nbf in the future', jws(es256, { ...good, nbf: NOW + 1 })],
    ['exp now', jws(es256, { ...good, exp: NOW })],
    ['exp passed', jws(es256, { ...good, exp: NOW - 1 })],
    ['exp a string', jws(es256, { ...good, exp: String(NOW + 100) })],
    ['iat a string', jws(es256, { ...good, iat: 'yesterday' })],
    ['nbf null', jws(es256, { ...good, nbf: null })],
    ['another issuer', jws(es256, { ...good, iss: 'someone-else' })],
    ['no issuer', jws(es256, { sub: 'u1', exp: NOW + 100 })],
    ['payload an array', jws(es256, [good])],
    ['payload a string', jws(es256, 'hello')],
    ['payload not JSON', jws(es256, '{"iss":')],
    ['header not JSON', jws('{"alg":', good)],
    ['header an array', jws(['ES256'], good)],
    ['alg none', `${b64({ alg: 'none' })}.${b64(good)}.`],
    ['alg none with a signature', `${b64({ alg: 'none' })}.${p}.${s}`],
    ['alg HS256', jws({ alg: 'HS256' }, good)],
    ['alg ES384', jws({ alg: 'ES384' }, good)],
    ['no alg', jws({ typ: 'JWT' }, good)],
    ['crit with an unknown header', jws({ alg: 'ES256', crit: ['exp'], exp: 1 }, good)],
    ['b64 false', jws({ alg: 'ES256', b64: false, crit: ['b64'] }, good)],
    ['payload changed', `${h}.${b64({ ...good, sub: 'admin' })}.${s}`],
    ['header changed', `${b64({ alg: 'ES256', kid: 'x' })}.${p}.${s}`],
    ['signature bit flipped', `${h}.${p}.${flipped.toString('base64url')}`],
    ['signature truncated', `${h}.${p}.${s.slice(0, -2)}`],
    ['signature lengthened', `${h}.${p}.${s}AA`],
    [
      'signature in DER',
      `${h}.${p}.${sign('sha256', Buffer.from(`${h}.${p}`), privateKey).toString('base64url')}`,
    ],
    ['signature missing', `${h}.${p}.`],
    ['signed by another key', jws(es256, good, foreign)],
    ['two segments', `${h}.${p}`],
    ['four segments', `${ok}.${s}`],
    ['padding', `${h}.${p}.${s}==`],
    ['base64 not base64url', `${h}.${p}.${s.replace(/-/g, '+').replace(/_/g, '/')}`],
    ['a space', `${h} .${p}.${s}`],
    ['empty', ''],
    ['dots only', '..'],
  ];
}

/** Signatures jose takes in another encoding than base64url without padding. */
const NOT_CANONICAL = new Set(['padding']);

describe('verifyEs256Jwt', () => {
  it('accepts exactly what jose’s jwtVerify accepts, and returns the same claims', async () => {
    const joseKey = await importSPKI(keys.publicKeyPem, 'ES256');
    const judged: Record<string, [boolean, boolean]> = {};
    for (const [name, token] of cases()) {
      const ours = verifyEs256Jwt(token, publicKey, ISSUER, NOW);
      const jose = await jwtVerify(token, joseKey, {
        issuer: ISSUER,
        algorithms: ['ES256'],
        currentDate: new Date(NOW * 1000),
      }).then(
        (r) => r.payload as Record<string, unknown>,
        () => null,
      );
      if (NOT_CANONICAL.has(name)) {
        // jose decodes these leniently; RFC 7515 has one encoding of a signature, and only that one is taken.
        expect({ name, ours, jose: jose !== null }).toEqual({ name, ours: null, jose: true });
      } else expect({ name, claims: ours }).toEqual({ name, claims: jose });
      judged[name] = [ours !== null, jose !== null];
    }
    // The cases do reach both sides: some accepted, most refused.
    expect(
      Object.entries(judged)
        .filter(([, [o]]) => o)
        .map(([name]) => name),
    ).toEqual(['well-formed', 'with typ and kid', 'without iat, nbf or exp', 'nbf now']);
  });

  it('verifies tokens jose signs, and refuses them once expired', async () => {
    const token = await new SignJWT({ role: 'teacher' })
      .setProtectedHeader({ alg: 'ES256' })
      .setIssuer(ISSUER)
      .setIssuedAt(NOW)
      .setExpirationTime(NOW + 60)
      .sign(privateKey);
    expect(verifyEs256Jwt(token, publicKey, ISSUER, NOW + 59)).toMatchObject({
      role: 'teacher',
      iss: ISSUER,
      exp: NOW + 60,
    });
    expect(verifyEs256Jwt(token, publicKey, ISSUER, NOW + 60)).toBeNull();
  });

  it('takes only a P-256 public key', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .publicKey.export({ type: 'spki', format: 'pem' })
      .toString();
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' })
      .publicKey.export({ type: 'spki', format: 'pem' })
      .toString();
    expect(() => es256PublicKey(rsa)).toThrow(/P-256/);
    expect(() => es256PublicKey(p384)).toThrow(/P-256/);
  });
});

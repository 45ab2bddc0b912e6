import { generateKeyPairSync } from 'node:crypto';
import { testKeys } from '../testing';
import { TokenService, TOKEN_TTL_SECONDS } from './token.service';

const claims = {
  sub: '00000000-0000-4000-8000-000000000001',
  tv: 3,
  role: 'student' as const,
  approved: true,
  isAdmin: false,
  name: 'Sam Student',
  username: 'sam',
  email: 'sam@demo.school',
};

describe('TokenService', () => {
  const tokens = new TokenService(testKeys());

  it('verifies what it signed and returns the claims with a session id and expiry', async () => {
    const { token, sid, expiresAt } = await tokens.sign(claims);
    const verified = await tokens.verify(token);
    expect(verified).toMatchObject({ ...claims, sid });
    expect(verified!.exp * 1000).toBe(expiresAt.getTime());
    expect(verified!.exp - verified!.iat).toBe(TOKEN_TTL_SECONDS);
  });

  it('refuses tampered, foreign, malformed and oversized tokens', async () => {
    const { token } = await tokens.sign(claims);
    const [header, payload, signature] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), isAdmin: true }),
    ).toString('base64url');
    expect(await tokens.verify(`${header}.${forged}.${signature}`)).toBeNull();

    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const foreign = new TokenService({
      publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    });
    expect(await tokens.verify((await foreign.sign(claims)).token)).toBeNull();
    expect(await tokens.verify('not-a-token')).toBeNull();
    expect(await tokens.verify(undefined)).toBeNull();
    expect(await tokens.verify('a'.repeat(5000))).toBeNull();
  });

  it('stops accepting a remembered token once it expires', async () => {
    const { token } = await tokens.sign(claims);
    expect(await tokens.verify(token)).not.toBeNull();
    const now = Date.now();
    const spy = jest.spyOn(Date, 'now').mockReturnValue(now + (TOKEN_TTL_SECONDS + 5) * 1000);
    try {
      expect(await tokens.verify(token)).toBeNull();
    } finally {
      spy.mockRestore();
    }
  });

  it('refuses to sign without the private key (only identity signs)', async () => {
    const verifier = new TokenService({ publicKeyPem: testKeys().publicKeyPem });
    await expect(verifier.sign(claims)).rejects.toThrow(/no signing key/);
    expect(await verifier.verify((await tokens.sign(claims)).token)).toMatchObject({ sub: claims.sub });
  });
});

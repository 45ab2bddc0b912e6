import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { importPKCS8, importSPKI, jwtVerify, SignJWT } from 'jose';

const SCRIPT = path.join(__dirname, '../init-secrets.mjs');

describe('deploy/init-secrets.mjs (the compose `keys` init)', () => {
  let root: string;
  let privateDir: string;
  let publicDir: string;
  let databaseDir: string;
  const run = () =>
    spawnSync(process.execPath, [SCRIPT], {
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH ?? '',
        PRIVATE_DIR: privateDir,
        PUBLIC_DIR: publicDir,
        DATABASE_DIR: databaseDir,
      },
    });
  const read = (dir: string, file: string) => fs.readFileSync(path.join(dir, file), 'utf8');
  const mode = (dir: string, file: string) => fs.statSync(path.join(dir, file)).mode & 0o777;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'district-keys-'));
    privateDir = path.join(root, 'private');
    publicDir = path.join(root, 'public');
    databaseDir = path.join(root, 'database');
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('creates an ES256 key pair that jose signs and verifies with', async () => {
    const result = run();
    expect(result.status).toBe(0);
    const privateKey = await importPKCS8(read(privateDir, 'auth-private.pem'), 'ES256');
    const publicKey = await importSPKI(read(publicDir, 'auth-public.pem'), 'ES256');
    const token = await new SignJWT({ role: 'teacher' })
      .setProtectedHeader({ alg: 'ES256' })
      .setSubject('u1')
      .sign(privateKey);
    const { payload } = await jwtVerify(token, publicKey, { algorithms: ['ES256'] });
    expect(payload).toMatchObject({ sub: 'u1', role: 'teacher' });
  });

  it('writes the database password and URL, and locks the private files to their owner', () => {
    // Separate directories (volumes): the gateway mounts the public key without the database credentials.
    expect(run().status).toBe(0);
    const password = read(databaseDir, 'postgres-password');
    expect(password).toMatch(/^[0-9a-f]{48}$/);
    expect(read(databaseDir, 'database-url')).toBe(`postgres://district:${password}@postgres:5432/district`);
    expect(mode(privateDir, 'auth-private.pem')).toBe(0o400);
    expect(mode(databaseDir, 'database-url')).toBe(0o400);
    // The postgres container reads its password as another user.
    expect(mode(databaseDir, 'postgres-password')).toBe(0o444);
    expect(mode(publicDir, 'auth-public.pem')).toBe(0o444);
  });

  it('keeps what exists on a second run, and never prints a secret', () => {
    const first = run();
    const files: [string, string][] = [
      [publicDir, 'auth-public.pem'],
      [databaseDir, 'postgres-password'],
      [databaseDir, 'database-url'],
    ];
    const before = files.map(([dir, f]) => read(dir, f));
    const privateBefore = read(privateDir, 'auth-private.pem');
    const second = run();
    expect(second.status).toBe(0);
    expect(second.stdout).not.toContain('wrote');
    expect(files.map(([dir, f]) => read(dir, f))).toEqual(before);
    expect(read(privateDir, 'auth-private.pem')).toBe(privateBefore);
    const output = first.stdout + first.stderr + second.stdout + second.stderr;
    for (const secret of [...before, privateBefore])
      expect(output).not.toContain(secret.trim().split('\n')[1] ?? secret);
    expect(output).not.toContain(before[1]);
  });

  it('derives a missing or stale public key from the private key', () => {
    run();
    const publicKey = read(publicDir, 'auth-public.pem');
    fs.rmSync(path.join(publicDir, 'auth-public.pem'));
    expect(run().status).toBe(0);
    expect(read(publicDir, 'auth-public.pem')).toBe(publicKey);
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({
      type: 'spki',
      format: 'pem',
    });
    fs.chmodSync(path.join(publicDir, 'auth-public.pem'), 0o644);
    fs.writeFileSync(path.join(publicDir, 'auth-public.pem'), other);
    expect(run().status).toBe(0);
    expect(read(publicDir, 'auth-public.pem')).toBe(publicKey);
  });

  it('refuses a private key that is not P-256, rather than pair it with a mismatched public key', () => {
    fs.mkdirSync(privateDir, { recursive: true });
    const ed = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' });
    fs.writeFileSync(path.join(privateDir, 'auth-private.pem'), ed);
    const result = run();
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('is not a P-256 (ES256) key');
    expect(fs.existsSync(path.join(publicDir, 'auth-public.pem'))).toBe(false);
  });
});

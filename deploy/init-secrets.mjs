// One-shot secrets init for docker compose (the `keys` service). Creates, only where missing:
//   PRIVATE_DIR/auth-private.pem     ES256 (P-256) signing key, PKCS#8 — mounted into identity only
//   PUBLIC_DIR/auth-public.pem       its public key, SPKI — every workload verifies sessions with it
//   DATABASE_DIR/postgres-password   for the postgres container (POSTGRES_PASSWORD_FILE)
//   DATABASE_DIR/database-url        DATABASE_URL for the services, not the gateway (DATABASE_URL_FILE)
// Three directories, three volumes: each container mounts only what it needs.
// Existing files are kept, so restarts keep sessions and the database password valid. Nothing is printed
// but file names: the values never reach the logs.
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const privateDir = process.env.PRIVATE_DIR ?? '/var/lib/district/private';
const publicDir = process.env.PUBLIC_DIR ?? '/var/lib/district/public';
const databaseDir = process.env.DATABASE_DIR ?? '/var/lib/district/database';
const db = {
  host: process.env.POSTGRES_HOST ?? 'postgres',
  port: process.env.POSTGRES_PORT ?? '5432',
  user: process.env.POSTGRES_USER ?? 'district',
  name: process.env.POSTGRES_DB ?? 'district',
};

const privateKeyFile = path.join(privateDir, 'auth-private.pem');
const publicKeyFile = path.join(publicDir, 'auth-public.pem');
const passwordFile = path.join(databaseDir, 'postgres-password');
const databaseUrlFile = path.join(databaseDir, 'database-url');

// Write to a temporary name, then rename: a crash never leaves a half-written key behind.
function writeAtomically(file, content, mode) {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, content, { mode });
  chmodSync(temporary, mode);
  renameSync(temporary, file);
  console.log(`init-secrets: wrote ${file}`);
}

mkdirSync(privateDir, { recursive: true, mode: 0o700 });
mkdirSync(publicDir, { recursive: true, mode: 0o755 });
mkdirSync(databaseDir, { recursive: true, mode: 0o755 });

let privateKeyPem;
if (existsSync(privateKeyFile)) {
  privateKeyPem = readFileSync(privateKeyFile, 'utf8');
  const key = createPrivateKey(privateKeyPem);
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    console.error(
      `init-secrets: ${privateKeyFile} is not a P-256 (ES256) key; move it away to generate a new one`,
    );
    process.exit(1);
  }
} else {
  ({ privateKey: privateKeyPem } = generateKeyPairSync('ec', {
    namedCurve: 'P-256',
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  }));
  writeAtomically(privateKeyFile, privateKeyPem, 0o400);
}

// The public key always follows the private key, so a rotated private key can never pair with a stale one.
const publicKeyPem = createPublicKey(privateKeyPem).export({ type: 'spki', format: 'pem' });
if (!existsSync(publicKeyFile) || readFileSync(publicKeyFile, 'utf8') !== publicKeyPem) {
  writeAtomically(publicKeyFile, publicKeyPem, 0o444);
}

// Hex keeps the password safe to embed in a URL without escaping.
if (!existsSync(passwordFile)) writeAtomically(passwordFile, randomBytes(24).toString('hex'), 0o444);
const password = readFileSync(passwordFile, 'utf8').trim();

const databaseUrl = `postgres://${encodeURIComponent(db.user)}:${encodeURIComponent(password)}@${db.host}:${db.port}/${encodeURIComponent(db.name)}`;
if (!existsSync(databaseUrlFile) || readFileSync(databaseUrlFile, 'utf8') !== databaseUrl) {
  writeAtomically(databaseUrlFile, databaseUrl, 0o400);
}

console.log('init-secrets: done');

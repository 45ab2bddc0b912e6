import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { generateKeyPairSync } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { defineConfig, type AuthKeys } from '@district/nest-common';

/** The session-signing keys' variables (ADR 0038): PEM, on one line with literal \n or not. */
export const keysConfig = defineConfig(
  'keys',
  { AUTH_PUBLIC_KEY: z.string().optional(), AUTH_PRIVATE_KEY: z.string().optional() },
  {
    unset: {
      AUTH_PUBLIC_KEY: 'generated in `DATA_DIR/keys`',
      AUTH_PRIVATE_KEY: 'generated in `DATA_DIR/keys`',
    },
  },
);

/** ES256 (P-256) session-signing keys: from the environment in production, generated once under DATA_DIR otherwise. */
export async function loadOrCreateKeys(env: NodeJS.ProcessEnv, dataDir: string): Promise<AuthKeys> {
  const { AUTH_PUBLIC_KEY, AUTH_PRIVATE_KEY } = keysConfig.load(env);
  if (AUTH_PUBLIC_KEY) {
    return {
      publicKeyPem: unescapePem(AUTH_PUBLIC_KEY),
      privateKeyPem: AUTH_PRIVATE_KEY ? unescapePem(AUTH_PRIVATE_KEY) : undefined,
    };
  }
  const dir = path.resolve(dataDir, 'keys');
  const publicFile = path.join(dir, 'session-public.pem');
  const privateFile = path.join(dir, 'session-private.pem');
  if (!existsSync(privateFile)) {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    await writeFile(privateFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    await writeFile(publicFile, publicKey.export({ type: 'spki', format: 'pem' }));
    await chmod(privateFile, 0o600);
  }
  return {
    publicKeyPem: await readFile(publicFile, 'utf8'),
    privateKeyPem: await readFile(privateFile, 'utf8'),
  };
}

/** Env files often carry PEMs on one line with literal \n. */
function unescapePem(value: string): string {
  return value.includes('\\n') ? value.replace(/\\n/g, '\n') : value;
}

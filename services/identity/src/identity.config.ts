import { z } from 'zod';
import {
  LOGIN_MAX_FAILURES_PER_ACCOUNT,
  LOGIN_MAX_FAILURES_PER_ADDRESS,
  PASSWORD_MIN_LENGTH,
  REGISTER_MAX_PER_ADDRESS,
  emailSchema,
} from '@district/contracts';
import { defineConfig, envBoolean, envInt, type ConfigValues } from '@district/nest-common';

const url = z
  .string()
  .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), 'must be an http(s) URL');

const password = () =>
  z.string().min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`);

export const DEFAULT_DEMO_PASSWORD = 'demo1234';

/**
 * identity's environment: one schema, read once at start by the root module and provided under IDENTITY_CONFIG as
 * the IdentityConfig below. An empty value is unset (ADR 0038).
 */
const identityShape = {
  /** OpenID Connect issuer for the third-party sign-in (e.g. https://accounts.google.com). */
  OIDC_ISSUER: url.optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  /** Tests run a local provider over plain HTTP; never set this in production. */
  OIDC_ALLOW_INSECURE_ISSUER: envBoolean(false),
  /** The first administrator, created (or promoted) at start; an existing password is never overwritten. */
  ADMIN_EMAIL: emailSchema.optional(),
  ADMIN_PASSWORD: password().optional(),
  ADMIN_NAME: z.string().trim().min(1).max(120).default('Administrator'),
  /** Password of the seeded demo accounts (demo mode only). */
  DEMO_PASSWORD: password().default(DEFAULT_DEMO_PASSWORD),
  /**
   * Failed sign-ins per address per window before it is throttled. A whole school often shares one address;
   * the default leaves a class far below it, and a very large school behind one address may raise it.
   */
  LOGIN_MAX_FAILURES_PER_ADDRESS: envInt(LOGIN_MAX_FAILURES_PER_ADDRESS, { min: 1 }),
  /** Registrations per address per hour (the same shared-address concern). */
  REGISTER_MAX_PER_ADDRESS: envInt(REGISTER_MAX_PER_ADDRESS, { min: 1 }),
};

export const identityConfig = defineConfig('identity', identityShape, {
  check: (env, problem) => {
    if (env.OIDC_ISSUER && !env.OIDC_CLIENT_ID)
      problem('OIDC_CLIENT_ID', 'is required when OIDC_ISSUER is set');
    if (!env.OIDC_ISSUER && (env.OIDC_CLIENT_ID || env.OIDC_CLIENT_SECRET))
      problem('OIDC_ISSUER', 'is required when OIDC_CLIENT_ID or OIDC_CLIENT_SECRET is set');
    if (
      typeof env.OIDC_ISSUER === 'string' &&
      env.OIDC_ISSUER.startsWith('http:') &&
      env.OIDC_ALLOW_INSECURE_ISSUER === false
    )
      problem('OIDC_ISSUER', 'must use https (set OIDC_ALLOW_INSECURE_ISSUER=true only in tests)');
    if (Boolean(env.ADMIN_EMAIL) !== Boolean(env.ADMIN_PASSWORD))
      problem(
        env.ADMIN_EMAIL ? 'ADMIN_PASSWORD' : 'ADMIN_EMAIL',
        'ADMIN_EMAIL and ADMIN_PASSWORD must be set together',
      );
  },
  build: identitySettings,
});

/** The schema, for what reads identity's variables without starting it. */
export const identityEnvSchema = identityShape;

export interface OidcSettings {
  issuer: URL;
  clientId: string;
  clientSecret?: string;
  allowInsecureIssuer: boolean;
}

export interface IdentityConfig {
  /** null: third-party sign-in is not configured and its route says so. */
  oidc: OidcSettings | null;
  /** null: no administrator is bootstrapped from the environment. */
  admin: { email: string; password: string; name: string } | null;
  demoPassword: string;
  login: { maxFailuresPerAccount: number; maxFailuresPerAddress: number };
  register: { maxPerAddress: number };
}

export const IDENTITY_CONFIG = identityConfig.token;

/** Reads identity's settings from the environment; a bad value fails the start with every problem listed. */
export function loadIdentityConfig(env: NodeJS.ProcessEnv): IdentityConfig {
  return identityConfig.load(env);
}

function identitySettings(parsed: ConfigValues<typeof identityShape>): IdentityConfig {
  return {
    oidc:
      parsed.OIDC_ISSUER && parsed.OIDC_CLIENT_ID
        ? {
            issuer: new URL(parsed.OIDC_ISSUER),
            clientId: parsed.OIDC_CLIENT_ID,
            clientSecret: parsed.OIDC_CLIENT_SECRET,
            allowInsecureIssuer: parsed.OIDC_ALLOW_INSECURE_ISSUER,
          }
        : null,
    admin:
      parsed.ADMIN_EMAIL && parsed.ADMIN_PASSWORD
        ? { email: parsed.ADMIN_EMAIL, password: parsed.ADMIN_PASSWORD, name: parsed.ADMIN_NAME }
        : null,
    demoPassword: parsed.DEMO_PASSWORD,
    login: {
      maxFailuresPerAccount: LOGIN_MAX_FAILURES_PER_ACCOUNT,
      maxFailuresPerAddress: parsed.LOGIN_MAX_FAILURES_PER_ADDRESS,
    },
    register: { maxPerAddress: parsed.REGISTER_MAX_PER_ADDRESS },
  };
}

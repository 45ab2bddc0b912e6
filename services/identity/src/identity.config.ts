import { z } from 'zod';
import {
  LOGIN_MAX_FAILURES_PER_ACCOUNT,
  LOGIN_MAX_FAILURES_PER_ADDRESS,
  PASSWORD_MIN_LENGTH,
  REGISTER_MAX_PER_ADDRESS,
  emailSchema,
} from '@district/contracts';
import { envBoolean, loadConfig } from '@district/nest-common';

/** Compose and Helm often pass unset variables as empty strings; treat those as absent. */
const optional = <S extends z.ZodType>(schema: S) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

const positiveWholeNumber = () =>
  optional(
    z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1'),
  );

const url = z
  .string()
  .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), 'must be an http(s) URL');

export const identityEnvSchema = z
  .object({
    /** OpenID Connect issuer for the third-party sign-in (e.g. https://accounts.google.com). */
    OIDC_ISSUER: optional(url),
    OIDC_CLIENT_ID: optional(z.string()),
    OIDC_CLIENT_SECRET: optional(z.string()),
    /** Tests run a local provider over plain HTTP; never set this in production. */
    OIDC_ALLOW_INSECURE_ISSUER: envBoolean(false),
    /** The first administrator, created (or promoted) at start; an existing password is never overwritten. */
    ADMIN_EMAIL: optional(emailSchema),
    ADMIN_PASSWORD: optional(
      z.string().min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`),
    ),
    ADMIN_NAME: optional(z.string().trim().min(1).max(120)),
    /** Password of the seeded demo accounts (demo mode only). */
    DEMO_PASSWORD: optional(
      z.string().min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`),
    ),
    /**
     * Failed sign-ins per address per window before it is throttled. A whole school often shares one address;
     * the default leaves a class far below it, and a very large school behind one address may raise it.
     */
    LOGIN_MAX_FAILURES_PER_ADDRESS: positiveWholeNumber(),
    /** Registrations per address per hour (the same shared-address concern). */
    REGISTER_MAX_PER_ADDRESS: positiveWholeNumber(),
  })
  .superRefine(
    (env, ctx) => {
      if (env.OIDC_ISSUER && !env.OIDC_CLIENT_ID) {
        ctx.addIssue({
          code: 'custom',
          path: ['OIDC_CLIENT_ID'],
          message: 'is required when OIDC_ISSUER is set',
        });
      }
      if (!env.OIDC_ISSUER && (env.OIDC_CLIENT_ID || env.OIDC_CLIENT_SECRET)) {
        ctx.addIssue({
          code: 'custom',
          path: ['OIDC_ISSUER'],
          message: 'is required when OIDC_CLIENT_ID or OIDC_CLIENT_SECRET is set',
        });
      }
      if (
        typeof env.OIDC_ISSUER === 'string' &&
        env.OIDC_ISSUER.startsWith('http:') &&
        env.OIDC_ALLOW_INSECURE_ISSUER === false
      ) {
        ctx.addIssue({
          code: 'custom',
          path: ['OIDC_ISSUER'],
          message: 'must use https (set OIDC_ALLOW_INSECURE_ISSUER=true only in tests)',
        });
      }
      if (Boolean(env.ADMIN_EMAIL) !== Boolean(env.ADMIN_PASSWORD)) {
        ctx.addIssue({
          code: 'custom',
          path: [env.ADMIN_EMAIL ? 'ADMIN_PASSWORD' : 'ADMIN_EMAIL'],
          message: 'ADMIN_EMAIL and ADMIN_PASSWORD must be set together',
        });
      }
    },
    // Also when single fields are wrong, so one start reports every problem.
    { when: () => true },
  );

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

export const DEFAULT_DEMO_PASSWORD = 'demo1234';

export const IDENTITY_CONFIG = Symbol('IDENTITY_CONFIG');

/** Reads identity's settings from the environment; a bad value fails the start with every problem listed. */
export function loadIdentityConfig(env: NodeJS.ProcessEnv): IdentityConfig {
  const parsed = loadConfig('identity', identityEnvSchema, env);
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
        ? {
            email: parsed.ADMIN_EMAIL,
            password: parsed.ADMIN_PASSWORD,
            name: parsed.ADMIN_NAME ?? 'Administrator',
          }
        : null,
    demoPassword: parsed.DEMO_PASSWORD ?? DEFAULT_DEMO_PASSWORD,
    login: {
      maxFailuresPerAccount: LOGIN_MAX_FAILURES_PER_ACCOUNT,
      maxFailuresPerAddress: parsed.LOGIN_MAX_FAILURES_PER_ADDRESS ?? LOGIN_MAX_FAILURES_PER_ADDRESS,
    },
    register: { maxPerAddress: parsed.REGISTER_MAX_PER_ADDRESS ?? REGISTER_MAX_PER_ADDRESS },
  };
}

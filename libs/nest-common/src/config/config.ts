import { z } from 'zod';

/** A start with bad configuration fails with one readable list of every problem. */
export class ConfigError extends Error {
  constructor(
    readonly service: string,
    readonly problems: string[],
  ) {
    super(`Invalid configuration for ${service}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** The environment as the loaders take it (process.env, or a test's object). */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * Parses `env` with `schema` and reports every problem at once, naming the variable (and its value, unless it is
 * secret). Internal to the config module: services, the gateway and the launcher declare a schema with
 * `defineConfig` (define-config.ts), which also makes an empty value count as unset.
 */
export function parseEnv<S extends z.ZodType>(label: string, schema: S, env: Env): z.output<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const key = issue.path.join('.') || '(root)';
    const got = issue.path.length ? env[String(issue.path[0])] : undefined;
    return got === undefined || TOKEN_KEY.test(key)
      ? `${key}: ${issue.message}`
      : `${key}: ${issue.message} (got "${redact(key, got)}")`;
  });
  throw new ConfigError(label, problems);
}

const SECRET_KEY = /(PASSWORD|SECRET|KEY|TOKEN)/i;
/** A token's problem names no value at all, not even its mask (as the gateway's and the metrics' checks always did). */
const TOKEN_KEY = /TOKEN/i;

/** Values of secret-looking keys never appear in messages or logs. */
export function redact(key: string, value: string | undefined): string {
  if (value === undefined) return '';
  return SECRET_KEY.test(key) ? '***' : value;
}

export function redactedEnv(env: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, SECRET_KEY.test(k) ? '***' : v]));
}

/*
 * Shared field helpers. `defineConfig` removes empty values before any of these run, so none of them needs to
 * know about `VAR=`; each names what it expects in words an operator reads in the start's list of problems.
 */

/** Env booleans: true/false/1/0/yes/no, anything else is a mistake worth reporting. */
export const envBoolean = (defaultValue: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
    .optional()
    .transform((v) => (v === undefined ? defaultValue : ['true', '1', 'yes'].includes(v)));

export interface EnvIntOptions {
  min?: number;
  max?: number;
  /** Named in the messages: "must be a number of bytes". */
  unit?: string;
}

const intSchema = ({ min, max, unit }: EnvIntOptions) => {
  const of = unit ? ` of ${unit}` : '';
  let schema = z.coerce.number({ error: `must be a number${of}` }).int(`must be a whole number${of}`);
  if (min !== undefined) schema = schema.min(min, `must be at least ${min}`);
  if (max !== undefined) schema = schema.max(max, `must be at most ${max}`);
  return schema;
};

/** A whole number within bounds, `defaultValue` when unset. */
export const envInt = (defaultValue: number, options: EnvIntOptions = {}) =>
  intSchema(options).default(defaultValue);

/** A whole number within bounds, undefined when unset (the code decides what unset means). */
export const envOptionalInt = (options: EnvIntOptions = {}) => intSchema(options).optional();

export const envPort = (defaultValue: number) =>
  z.coerce
    .number({ error: 'must be a port number' })
    .int('must be a whole number')
    .min(0, 'must be between 0 and 65535')
    .max(65535, 'must be between 0 and 65535')
    .default(defaultValue);

const isUrlOf = (protocols: readonly string[], value: string): boolean => {
  try {
    return protocols.includes(new URL(value).protocol.replace(':', ''));
  } catch {
    return false;
  }
};

const urlMessage = (protocols: readonly string[]) =>
  `must be a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}`;

export const envUrl = (protocols: string[], defaultValue: string) =>
  z
    .string()
    .default(defaultValue)
    .refine((v) => isUrlOf(protocols, v), urlMessage(protocols));

/** A URL with one of `protocols`, undefined when unset. */
export const envOptionalUrl = (protocols: string[]) =>
  z
    .string()
    .refine((v) => isUrlOf(protocols, v), urlMessage(protocols))
    .optional();

/** A comma-separated list, blanks dropped; unset is `defaultValue` (empty unless given). */
export const envList = (defaultValue: readonly string[] = []) =>
  z
    .string()
    .optional()
    .transform((v) =>
      v === undefined
        ? [...defaultValue]
        : v
            .split(',')
            .map((s) => s.trim())
            .filter((s) => s !== ''),
    );

export const logLevelSchema = z
  .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
    error: 'must be one of fatal, error, warn, info, debug, trace, silent',
  })
  .default('info');

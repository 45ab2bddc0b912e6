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

export function loadConfig<S extends z.ZodType>(
  service: string,
  schema: S,
  env: NodeJS.ProcessEnv,
): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const key = issue.path.join('.') || '(root)';
    const got = issue.path.length ? env[String(issue.path[0])] : undefined;
    return got === undefined
      ? `${key}: ${issue.message}`
      : `${key}: ${issue.message} (got "${redact(key, got)}")`;
  });
  throw new ConfigError(service, problems);
}

const SECRET_KEY = /(PASSWORD|SECRET|KEY|TOKEN)/i;

/** Values of secret-looking keys never appear in messages or logs. */
export function redact(key: string, value: string | undefined): string {
  if (value === undefined) return '';
  return SECRET_KEY.test(key) ? '***' : value;
}

export function redactedEnv(env: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, SECRET_KEY.test(k) ? '***' : v]));
}

/** Env booleans: true/false/1/0/yes/no, anything else is a mistake worth reporting. */
export const envBoolean = (defaultValue: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', ''], { error: 'must be true or false' })
    .optional()
    .transform((v) => (v === undefined || v === '' ? defaultValue : ['true', '1', 'yes'].includes(v)));

export const envPort = (defaultValue: number) =>
  z.coerce
    .number({ error: 'must be a port number' })
    .int('must be a whole number')
    .min(0, 'must be between 0 and 65535')
    .max(65535, 'must be between 0 and 65535')
    .default(defaultValue);

export const envUrl = (protocols: string[], defaultValue: string) =>
  z
    .string()
    .default(defaultValue)
    .refine(
      (v) => {
        try {
          return protocols.includes(new URL(v).protocol.replace(':', ''));
        } catch {
          return false;
        }
      },
      `must be a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}`,
    );

export const logLevelSchema = z
  .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
    error: 'must be one of fatal, error, warn, info, debug, trace, silent',
  })
  .default('info');

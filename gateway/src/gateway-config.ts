import { z } from 'zod';
import {
  ConfigError,
  PER_SERVICE,
  defineConfig,
  envBoolean,
  envInt,
  envList,
  perServiceKey,
} from '@district/nest-common';
import { DEFAULT_BODY_LIMIT, DEFAULT_UPLOAD_LIMIT, type GatewayOptions } from './gateway';
import { hostNameOf } from './origin-check';
import { DEFAULT_MAX_UNFINISHED_PER_ADDRESS } from './unfinished-requests';

/**
 * The gateway's own settings from the environment. The launcher owns the shared ones (PORT, HOST,
 * PUBLIC_URL, WEB_DIST) and the logger; it spreads these into `createGateway`.
 */
export type GatewaySettings = Required<
  Pick<
    GatewayOptions,
    'allowedOrigins' | 'allowedHosts' | 'trustProxy' | 'bodyLimits' | 'upstreams' | 'maxUnfinishedPerAddress'
  >
> &
  Pick<GatewayOptions, 'metricsToken'>;

/** The gateway's problems, as every process's: one list (ADR 0038). */
export class GatewayConfigError extends ConfigError {
  constructor(problems: string[]) {
    super('gateway', problems);
    this.name = 'GatewayConfigError';
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

const urlList = envList().refine(
  (urls) => urls.every(isHttpUrl),
  'must be a comma-separated list of http(s) URLs',
);

const hostList = envList()
  .refine(
    (hosts) => hosts.every((h) => hostNameOf(h) !== undefined),
    'must be a comma-separated list of host[:port] names',
  )
  .transform((hosts) => hosts.map((h) => hostNameOf(h) as string));

const bytes = (fallback: number) =>
  z.coerce
    .number({ error: 'must be a number of bytes' })
    .int('must be a whole number of bytes')
    .positive('must be more than 0')
    .default(fallback);

/** The launcher's convention for replica lists: UPSTREAM_IDENTITY=http://a:4101,http://b:4101 */
const UPSTREAM = `UPSTREAM_${PER_SERVICE}` as const;
export const upstreamEnvKey = (service: string) => perServiceKey(UPSTREAM, service);

/** The gateway's variables, declared once (ADR 0038); an empty value is unset. */
export const gatewayConfig = defineConfig(
  'gateway',
  {
    GATEWAY_ALLOWED_ORIGINS: urlList,
    GATEWAY_ALLOWED_HOSTS: hostList,
    GATEWAY_TRUST_PROXY: envBoolean(false),
    GATEWAY_BODY_LIMIT: bytes(DEFAULT_BODY_LIMIT),
    GATEWAY_UPLOAD_LIMIT: bytes(DEFAULT_UPLOAD_LIMIT),
    GATEWAY_MAX_UNFINISHED_PER_ADDRESS: envInt(DEFAULT_MAX_UNFINISHED_PER_ADDRESS, {
      min: 1,
      max: 100_000,
      unit: 'requests',
    }),
    GATEWAY_METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    [UPSTREAM]: urlList,
  },
  { unset: { [UPSTREAM]: 'in-process' } },
);

/**
 * Reads the gateway's settings, reporting every mistake at once (the metrics token is never echoed).
 * `services` are the names the launcher registers: one UPSTREAM_<NAME> each.
 */
export function gatewaySettingsFromEnv(env: NodeJS.ProcessEnv, services: readonly string[]): GatewaySettings {
  let data;
  try {
    data = gatewayConfig.load(env, { services });
  } catch (error) {
    throw error instanceof ConfigError ? new GatewayConfigError(error.problems) : error;
  }
  const upstreams: Record<string, string[]> = {};
  for (const [service, urls] of Object.entries(data[UPSTREAM])) {
    if (urls.length > 0) upstreams[service] = urls;
  }
  return {
    allowedOrigins: data.GATEWAY_ALLOWED_ORIGINS,
    allowedHosts: data.GATEWAY_ALLOWED_HOSTS,
    trustProxy: data.GATEWAY_TRUST_PROXY,
    bodyLimits: { default: data.GATEWAY_BODY_LIMIT, upload: data.GATEWAY_UPLOAD_LIMIT },
    metricsToken: data.GATEWAY_METRICS_TOKEN,
    maxUnfinishedPerAddress: data.GATEWAY_MAX_UNFINISHED_PER_ADDRESS,
    upstreams,
  };
}

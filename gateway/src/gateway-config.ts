import { z } from 'zod';
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

export class GatewayConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid gateway configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
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

const commaList = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  );

const urlList = commaList.refine(
  (urls) => urls.every(isHttpUrl),
  'must be a comma-separated list of http(s) URLs',
);

const hostList = commaList
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
export const upstreamEnvKey = (service: string) => `UPSTREAM_${service.toUpperCase()}`;

const schema = z.object({
  GATEWAY_ALLOWED_ORIGINS: urlList,
  GATEWAY_ALLOWED_HOSTS: hostList,
  GATEWAY_TRUST_PROXY: z
    .enum(['true', 'false', '1', '0', 'yes', 'no', ''], { error: 'must be true or false' })
    .optional()
    .transform((v) => v === 'true' || v === '1' || v === 'yes'),
  GATEWAY_BODY_LIMIT: bytes(DEFAULT_BODY_LIMIT),
  GATEWAY_UPLOAD_LIMIT: bytes(DEFAULT_UPLOAD_LIMIT),
  GATEWAY_MAX_UNFINISHED_PER_ADDRESS: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce
      .number({ error: 'must be a number of requests' })
      .int('must be a whole number of requests')
      .min(1, 'must be at least 1')
      .max(100_000, 'must be at most 100000')
      .default(DEFAULT_MAX_UNFINISHED_PER_ADDRESS),
  ),
  // Compose passes an unset variable as an empty string: that is no token.
  GATEWAY_METRICS_TOKEN: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string().min(16, 'must be at least 16 characters').optional(),
  ),
});

/**
 * Reads the gateway's settings, reporting every mistake at once (the metrics token is never echoed).
 * `services` are the names the launcher registers: one UPSTREAM_<NAME> each.
 */
export function gatewaySettingsFromEnv(env: NodeJS.ProcessEnv, services: readonly string[]): GatewaySettings {
  const upstreamSchema = z.object(
    Object.fromEntries(services.map((service) => [upstreamEnvKey(service), urlList])),
  );
  const base = schema.safeParse(env);
  const upstream = upstreamSchema.safeParse(env);
  if (!base.success || !upstream.success) {
    throw new GatewayConfigError(
      [...(base.error?.issues ?? []), ...(upstream.error?.issues ?? [])].map((issue) => {
        const key = issue.path.join('.');
        const got = env[key];
        return got === undefined || key.includes('TOKEN')
          ? `${key}: ${issue.message}`
          : `${key}: ${issue.message} (got "${got}")`;
      }),
    );
  }
  const data = base.data;
  const upstreams: Record<string, string[]> = {};
  for (const service of services) {
    const urls = upstream.data[upstreamEnvKey(service)];
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

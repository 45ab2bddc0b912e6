import { isIP } from 'node:net';
import { z } from 'zod';
import { defineConfig, type LoadContext } from './define-config';
import type { Env } from './config';

/** Where the gateway runs in standalone and `start:cluster`; containers set TRUSTED_PROXIES to their network. */
export const DEFAULT_TRUSTED_PROXIES = ['127.0.0.1', '::1'];

function isAddressOrRange(value: string): boolean {
  const [address, bits, extra] = value.split('/');
  if (extra !== undefined || !isIP(address)) return false;
  if (bits === undefined) return true;
  const max = isIP(address) === 4 ? 32 : 128;
  return /^\d+$/.test(bits) && Number(bits) <= max;
}

/**
 * The settings the platform reads for every service, beside the service's own (CONVENTIONS rule 5's common section).
 * - TRUSTED_PROXIES: the peers whose X-Forwarded-For/-Proto a service believes (the gateway's addresses). From
 *   anyone else those headers are ignored, so a caller reaching a service port directly cannot pick its own
 *   address and dodge the per-address limits.
 * - METRICS_TOKEN: the bearer token for each service's /metrics; a guessable one stops the start.
 */
export const platformConfig = defineConfig('platform', {
  TRUSTED_PROXIES: z
    .string()
    .default(DEFAULT_TRUSTED_PROXIES.join(','))
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .refine(
      (list) => list.every(isAddressOrRange),
      'must be a comma-separated list of IP addresses or CIDR ranges',
    )
    .transform((list) => (list.length > 0 ? list : DEFAULT_TRUSTED_PROXIES)),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
});

export type PlatformConfig = ReturnType<typeof platformConfig.load>;

/** The platform's section for one service, its problems listed under the service's name. */
export function readPlatformConfig(runtime: { env: Env }, context: LoadContext): PlatformConfig {
  return platformConfig.load(runtime.env, context);
}

import { isIP } from 'node:net';
import { RouteConfig } from '@nestjs/platform-fastify';
import { z } from 'zod';
import { loadConfig } from '../config/config';

/** Where the gateway runs in standalone and `start:cluster`; containers set TRUSTED_PROXIES to their network. */
export const DEFAULT_TRUSTED_PROXIES = ['127.0.0.1', '::1'];

function isAddressOrRange(value: string): boolean {
  const [address, bits, extra] = value.split('/');
  if (extra !== undefined || !isIP(address)) return false;
  if (bits === undefined) return true;
  const max = isIP(address) === 4 ? 32 : 128;
  return /^\d+$/.test(bits) && Number(bits) <= max;
}

const schema = z.object({
  TRUSTED_PROXIES: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .refine(
      (list) => list.every(isAddressOrRange),
      'must be a comma-separated list of IP addresses or CIDR ranges',
    ),
});

/**
 * The peers whose X-Forwarded-For/-Proto a service believes (the gateway's addresses). From anyone else those
 * headers are ignored, so a caller reaching a service port directly cannot pick its own address and dodge the
 * per-address limits.
 */
export function trustedProxies(env: NodeJS.ProcessEnv): string[] {
  const list = loadConfig('platform', schema, env).TRUSTED_PROXIES;
  return list.length > 0 ? list : DEFAULT_TRUSTED_PROXIES;
}

/** Route config key read by the platform's form-body parser. */
export const ACCEPTS_FORM = 'acceptsForm';

/**
 * Lets an HTML form post to this route (`application/x-www-form-urlencoded`). Every other route is JSON only and
 * answers a form body with 415, so a cross-site form cannot reach it as a "simple" request.
 */
export const AcceptsForm = () => RouteConfig({ [ACCEPTS_FORM]: true });

/**
 * True when the browser says the request comes from another site (Fetch Metadata). Requests without the header
 * (older browsers, non-browser clients) are left to the gateway's Origin check.
 */
export function isCrossSite(headers: Record<string, string | string[] | undefined>): boolean {
  const site = headers['sec-fetch-site'];
  return typeof site === 'string' && site !== 'same-origin' && site !== 'none';
}

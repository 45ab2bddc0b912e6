import { RouteConfig } from '@nestjs/platform-fastify';

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

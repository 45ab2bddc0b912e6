/**
 * The gateway's route table: which service answers which public path. It is built from the services the
 * launcher hands over (each declares its own routes), so no service is named here.
 * First match wins: `pattern` routes (one-segment wildcards, the most specific) first, then the others, each in the
 * order of that list. Every entry carries a sample path, which the tests request.
 */
import type { BodyLimitKind, RouteMatch, ServiceRoute } from '@district/nest-common';

export type { BodyLimitKind, RouteMatch, ServiceRoute };

/** A service as the gateway needs it: the launcher's `ServiceDefinition` fits. */
export interface GatewayService {
  readonly name: string;
  readonly routes: readonly ServiceRoute[];
}

/** A route of the table, with the service that answers it. */
export interface Route extends ServiceRoute {
  readonly service: string;
}

/** The path of the WebSocket endpoint; upgrades to any other path are refused. Its owner declares it as a route. */
export const WEBSOCKET_PATH = '/ws';

/** Names map to UPSTREAM_<NAME> and back by case alone, so only lower-case letters and digits. */
const SERVICE_NAME = /^[a-z][a-z0-9]{0,31}$/;

/**
 * The table for these services, in their order. Refuses what would route silently wrong: a bad or repeated
 * name, a path that is not absolute, and an entry whose sample another (earlier) entry would take.
 */
export function buildRouteTable(services: readonly GatewayService[]): Route[] {
  const names = new Set<string>();
  for (const { name } of services) {
    if (!SERVICE_NAME.test(name))
      throw new Error(`Service name "${name}" must be lower-case letters and digits`);
    if (names.has(name)) throw new Error(`Service "${name}" is listed twice`);
    names.add(name);
  }
  const table = services.flatMap(({ name, routes }) => routes.map((r): Route => ({ ...r, service: name })));
  for (const entry of table) {
    if (!entry.path.startsWith('/'))
      throw new Error(`Route "${entry.path}" of ${entry.service} must start with /`);
    const taker = matchRoute(entry.sample, table);
    if (taker !== entry) {
      throw new Error(
        `Route ${entry.path} of ${entry.service}: its sample ${entry.sample} goes to ` +
          (taker ? `${taker.path} of ${taker.service}` : 'no route'),
      );
    }
  }
  return table;
}

/** A `pattern` route's segments against the path's: `*` takes one non-empty segment, others must be equal. */
function matchesPattern(pattern: string, pathname: string): boolean {
  const want = pattern.split('/');
  const got = pathname.split('/');
  if (want.length !== got.length) return false;
  return want.every((part, i) => (part === '*' ? got[i] !== '' : part === got[i]));
}

function matches(entry: ServiceRoute, pathname: string): boolean {
  if (entry.match === 'pattern') return matchesPattern(entry.path, pathname);
  if (pathname === entry.path) return true;
  return (
    entry.match === 'tree' &&
    pathname.length > entry.path.length &&
    pathname.startsWith(entry.path) &&
    pathname.charCodeAt(entry.path.length) === 47 /* '/' */
  );
}

/** The route for a path (without query string), or undefined. Pattern routes first, then first match wins. */
export function matchRoute(pathname: string, routes: readonly Route[]): Route | undefined {
  for (const entry of routes) {
    if (entry.match === 'pattern' && matches(entry, pathname)) return entry;
  }
  for (const entry of routes) {
    if (entry.match !== 'pattern' && matches(entry, pathname)) return entry;
  }
  return undefined;
}

/** `/api` and everything below it is the API namespace: unmatched paths there are JSON 404s, never the SPA. */
export function isApiPath(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/');
}

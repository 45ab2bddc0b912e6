import type { ModulesContainer } from '@nestjs/core';
import { PLATFORM_PATHS, controllerRoutes, type OpenApiDocument } from '../http/openapi';

export interface MatrixRoute {
  method: string;
  path: string;
  expect: Record<string, number>;
}

/** `/api/posts/{publishedPost}` and `/api/posts/{id}` are the same route: parameters compared by position. */
export const routeKey = (method: string, path: string) =>
  `${method.toUpperCase()} ${path.split('?')[0].replace(/\{[^}]+\}/g, '{}')}`;

/** `METHOD /path/{}` of every handler the running app registered (compare with `routeKey` of the matrix's routes). */
export function registeredRouteKeys(modules: ModulesContainer): string[] {
  return controllerRoutes(modules).map((r) => routeKey(r.method, r.path));
}

/**
 * Compares a service's OpenAPI document with its authorisation matrix (the data file its authz test runs):
 * the same routes, and a route is documented as public exactly when an anonymous caller is not refused with 401.
 * `publicWith401` names public routes whose 401 means something else (wrong password; "not signed in" from
 * /me). Returns the differences (empty when they agree), so a test can show them all at once.
 */
export function openApiMatrixDifferences(
  doc: OpenApiDocument,
  routes: readonly MatrixRoute[],
  publicWith401: readonly string[] = [],
): string[] {
  const documented = new Map<string, string>();
  for (const [path, operations] of Object.entries(doc.paths))
    for (const [verb, operation] of Object.entries(operations))
      if (operation) documented.set(routeKey(verb, path), operation['x-access']);
  const differences: string[] = [];
  const inMatrix = new Set<string>();
  for (const route of routes) {
    if (PLATFORM_PATHS.has(route.path)) continue;
    const key = routeKey(route.method, route.path);
    if (inMatrix.has(key)) continue;
    inMatrix.add(key);
    const access = documented.get(key);
    if (access === undefined) {
      differences.push(`${key}: in the authorisation matrix, not in the OpenAPI document`);
      continue;
    }
    const anonymousRefused = route.expect.anonymous === 401 && !publicWith401.includes(key);
    if (anonymousRefused === (access === 'public'))
      differences.push(
        `${key}: documented as ${access}, but anonymous callers get ${route.expect.anonymous}`,
      );
  }
  for (const key of documented.keys())
    if (!inMatrix.has(key)) differences.push(`${key}: documented, but not in the authorisation matrix`);
  return differences;
}

import { ModulesContainer } from '@nestjs/core';
import type { RunningService } from '../app/create-service-app';
import type { OpenApiDocument } from '../http/openapi';
import type { HttpClient, RequestOptions } from './http-client';
import { openApiMatrixDifferences, registeredRouteKeys, routeKey, type MatrixRoute } from './openapi-check';
import { PERSONAS } from './test-sessions';

/** The matrix's columns: the account kinds, and an administrator whose approval an admin withdrew (ADR 0011). */
export const MATRIX_PERSONAS = [...PERSONAS, 'suspendedAdmin'] as const;
export type MatrixPersona = (typeof MATRIX_PERSONAS)[number];

/** One row of a service's `test/authz-matrix.json`. */
export interface AuthzMatrixRoute extends MatrixRoute {
  /** The request body; the service's filler replaces its placeholders. */
  body?: unknown;
  /** The message expected with a status: `"403"` for every persona, `"403:admin"` for that persona only. */
  messages?: Readonly<Record<string, string | undefined>>;
}

export interface AuthzMatrix {
  personas: readonly string[];
  routes: readonly AuthzMatrixRoute[];
}

/** One cell's request: the path with its placeholders filled, and the body (JSON, form or multipart). */
export interface FilledRequest {
  path: string;
  options?: RequestOptions;
}

export interface AuthzMatrixOptions {
  matrix: AuthzMatrix;
  /** The service under test, read once the spec's own `beforeAll` has started it. */
  app(): { service: RunningService; client(): HttpClient };
  /** The client a persona calls with, asked for each cell (the same one every time, or a fresh one). */
  clientFor(persona: MatrixPersona): HttpClient | Promise<HttpClient>;
  /** Fills the route's placeholders (fresh rows, the caller's own id or credentials) for one cell. */
  fill(route: AuthzMatrixRoute, persona: MatrixPersona): FilledRequest | Promise<FilledRequest>;
  /** Runs after each cell, e.g. to forget a session the cell signed out. */
  afterCell?(route: AuthzMatrixRoute, persona: MatrixPersona): void;
  /** Public routes whose 401 means something other than "sign in first" (see `openApiMatrixDifferences`). */
  publicWith401?: readonly string[];
}

/**
 * The authorisation matrix of a service, as three tests: the matrix covers every route Nest registered for
 * every persona, the OpenAPI document agrees with it (public exactly where anonymous callers are let in), and
 * every route answers every persona as the matrix says. Mismatches are collected, so one run shows them all.
 */
export function describeAuthzMatrix(options: AuthzMatrixOptions): void {
  const { matrix } = options;
  const personas = [...MATRIX_PERSONAS].sort();

  describe('authorisation matrix', () => {
    it('lists every route of the service, for every persona', () => {
      expect([...matrix.personas].sort()).toEqual(personas);
      for (const route of matrix.routes) expect(Object.keys(route.expect).sort()).toEqual(personas);
      const inMatrix = new Set(matrix.routes.map((r) => routeKey(r.method, r.path)));
      const registered = registeredRouteKeys(options.app().service.app.get(ModulesContainer));
      expect(new Set(registered)).toEqual(inMatrix);
    });

    it('documents every route in its OpenAPI document, public exactly where the matrix lets anyone in', async () => {
      const res = await options.app().client().get<OpenApiDocument>('/openapi.json');
      expect(res.status).toBe(200);
      expect(res.body.openapi).toBe('3.1.0');
      expect(openApiMatrixDifferences(res.body, matrix.routes, options.publicWith401)).toEqual([]);
    });

    it('answers every route as the matrix says, for every persona', async () => {
      const mismatches: string[] = [];
      for (const route of matrix.routes) {
        for (const persona of MATRIX_PERSONAS) {
          const client = await options.clientFor(persona);
          const { path, options: request } = await options.fill(route, persona);
          const res = await client.request(route.method, path, request);
          options.afterCell?.(route, persona);
          const expected = route.expect[persona];
          const message = route.messages?.[`${expected}:${persona}`] ?? route.messages?.[String(expected)];
          const actualMessage = (res.body as { message?: string } | undefined)?.message;
          if (res.status !== expected || (message && actualMessage !== message)) {
            mismatches.push(
              `${route.method} ${route.path} as ${persona}: expected ${expected}${message ? ` "${message}"` : ''}, got ${res.status} ${res.text.slice(0, 120)}`,
            );
          }
        }
      }
      expect(mismatches).toEqual([]);
    });
  });
}

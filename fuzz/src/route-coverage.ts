import { routeName, type Operation } from './request-arbitrary';

/** One row of a service's authz matrix: a concrete call (placeholders in braces) and who gets what. */
export interface MatrixRow {
  method: string;
  path: string;
  body?: unknown;
  expect: Record<string, number>;
}

export interface RouteCoverage {
  /** Each matrix row with the document's operation it exercises. */
  rows: Array<{ op: Operation; row: MatrixRow }>;
  /** Matrix rows no documented route answers (the document lost a route the service registers). */
  unmatchedRows: string[];
  /** Documented routes no matrix row exercises (nobody decided who may call them). */
  uncoveredRoutes: string[];
}

/**
 * What every service answers for the platform rather than the public (probes, metrics, its own document): in each
 * matrix, never routed to a service by the gateway, so never in the merged document.
 */
export const PLATFORM_ENDPOINTS: readonly string[] = [
  '/healthz',
  '/readyz',
  '/statusz',
  '/metrics',
  '/openapi.json',
];

/**
 * Pairs the authz matrices' rows with the document's routes, both ways. The matrices are checked against the routes
 * each service registers, so a document that agrees with them in both directions lists every route there is.
 */
export function routeCoverage(
  operations: readonly Operation[],
  matrices: ReadonlyArray<{ routes: readonly MatrixRow[] }>,
): RouteCoverage {
  // The most literal template first, as the services' router decides: `/api/posts/public` is not `/api/posts/{id}`.
  const params = (template: string) => template.split('{').length - 1;
  const templates = [...operations]
    .sort((a, b) => params(a.template) - params(b.template))
    .map((op) => ({ op, pattern: new RegExp(`^${op.template.replace(/\{[^}]+\}/g, '[^/]+')}$`) }));
  const rows: RouteCoverage['rows'] = [];
  const unmatchedRows: string[] = [];
  for (const matrix of matrices) {
    for (const row of matrix.routes) {
      const rowPath = row.path.split('?')[0].replace(/\{[^}]+\}/g, 'x');
      if (PLATFORM_ENDPOINTS.includes(rowPath)) continue;
      const match = templates.find(({ op, pattern }) => op.method === row.method && pattern.test(rowPath));
      if (match) rows.push({ op: match.op, row });
      else unmatchedRows.push(`${row.method} ${row.path}`);
    }
  }
  const covered = new Set(rows.map(({ op }) => routeName(op)));
  const uncoveredRoutes = operations.map(routeName).filter((name) => !covered.has(name));
  return { rows, unmatchedRows: [...new Set(unmatchedRows)], uncoveredRoutes };
}

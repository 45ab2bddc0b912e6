import type { Logger } from 'pino';
import { matchRoute, type Route } from './routes';
import { fetchUpstreamJson } from './upstream-fetch';
import type { UpstreamPool } from './upstream-pool';
import { escapeHtml } from './page-meta';

/**
 * The API reference at `/api/docs` (ARCHITECTURE §8): each running service's `/openapi.json` (generated from its
 * controllers and zod schemas by @district/nest-common), merged into one OpenAPI 3.1 document at
 * `/api/docs/openapi.json` and shown as a plain server-rendered page at `/api/docs` (no script, so it lives
 * under the site's strict CSP). A path is taken from a service only when the gateway's route table sends that
 * path to that service, so the reference never shows a route the public URL cannot reach.
 */

export const API_DOCS_PATH = '/api/docs';
export const API_DOCS_JSON_PATH = '/api/docs/openapi.json';

type JsonSchema = Record<string, unknown>;
interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  'x-access'?: string;
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { description?: string }>;
}
interface ServiceDocument {
  openapi?: string;
  paths?: Record<string, Record<string, Operation>>;
  components?: { securitySchemes?: Record<string, JsonSchema>; schemas?: Record<string, JsonSchema> };
}
export interface MergedDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: Array<{ url: string }>;
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, JsonSchema>; schemas: Record<string, JsonSchema> };
}

const VERBS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** One document from the services' own; `missing` names services that did not answer (they are listed as such). */
export function mergeDocuments(
  documents: ReadonlyArray<{ service: string; document: ServiceDocument }>,
  missing: readonly string[],
  publicOrigin: string,
  routes: readonly Route[],
): MergedDocument {
  const merged: MergedDocument = {
    openapi: '3.1.0',
    info: {
      title: 'District Learning API',
      version: '1',
      description:
        'Every route reachable through the gateway. Signed-in calls carry the session cookie set by ' +
        'POST /api/auth/login; state-changing calls must come from the site origin.' +
        (missing.length ? ` Not running when this was generated: ${missing.join(', ')}.` : ''),
    },
    servers: [{ url: publicOrigin }],
    tags: [],
    paths: {},
    components: { securitySchemes: {}, schemas: {} },
  };
  for (const { service, document } of documents) {
    merged.tags.push({ name: service, description: `The ${service} service` });
    Object.assign(merged.components.securitySchemes, document.components?.securitySchemes ?? {});
    Object.assign(merged.components.schemas, document.components?.schemas ?? {});
    for (const [path, operations] of Object.entries(document.paths ?? {})) {
      const concrete = path.replace(/\{[^}]+\}/g, 'x');
      if (matchRoute(concrete, routes)?.service !== service) continue;
      merged.paths[path] = { ...merged.paths[path], ...operations };
    }
  }
  merged.paths = Object.fromEntries(Object.entries(merged.paths).sort(([a], [b]) => a.localeCompare(b)));
  return merged;
}

function schemaSummary(schema: JsonSchema | undefined): string {
  if (!schema) return '';
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (!properties) return String(schema.type ?? '');
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(properties)
    .map(([name, p]) => {
      const type = Array.isArray(p.enum)
        ? (p.enum as unknown[]).map((v) => JSON.stringify(v)).join(' | ')
        : p.type;
      return `${name}${required.has(name) ? '' : '?'}: ${String(type ?? 'any')}`;
    })
    .join(', ');
}

/** The human page: one table per service, a row per operation. */
export function renderDocsPage(doc: MergedDocument): string {
  const e = escapeHtml;
  const sections = doc.tags.map((tag) => {
    const rows: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const verb of VERBS) {
        const op = operations[verb];
        if (!op || !op.tags?.includes(tag.name)) continue;
        const body = Object.entries(op.requestBody?.content ?? {})
          .map(([type, { schema }]) => `${type}: ${schemaSummary(schema)}`)
          .join('; ');
        const query = (op.parameters ?? [])
          .filter((p) => p.in === 'query')
          .map((p) => `${p.name}${p.required ? '' : '?'}`)
          .join(', ');
        rows.push(
          `<tr><td><code>${verb.toUpperCase()}</code></td><td><code>${e(path)}</code></td>` +
            `<td>${e(op['x-access'] ?? '')}</td><td>${e(query)}</td><td>${e(body)}</td>` +
            `<td>${e(Object.keys(op.responses ?? {}).join(', '))}</td></tr>`,
        );
      }
    }
    return (
      `<section aria-labelledby="s-${e(tag.name)}"><h2 id="s-${e(tag.name)}">${e(tag.name)}</h2>` +
      `<table><thead><tr><th scope="col">Method</th><th scope="col">Path</th><th scope="col">Who</th>` +
      `<th scope="col">Query</th><th scope="col">Body</th><th scope="col">Answers</th></tr></thead>` +
      `<tbody>${rows.join('')}</tbody></table></section>`
    );
  });
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${e(doc.info.title)}</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#0f172a}
table{border-collapse:collapse;width:100%;margin-bottom:2rem}th,td{border-bottom:1px solid #cbd5e1;padding:.35rem .5rem;text-align:left;vertical-align:top}
code{font-size:13px}th{background:#f1f5f9}
</style>
</head>
<body>
<main>
<h1>${e(doc.info.title)}</h1>
<p>${e(doc.info.description)}</p>
<p>Machine-readable: <a href="${API_DOCS_JSON_PATH}">OpenAPI 3.1 document</a>.</p>
${sections.join('\n')}
</main>
</body>
</html>
`;
}

export interface ApiDocsOptions {
  pools: ReadonlyMap<string, UpstreamPool>;
  /** The gateway's route table: a service's path is shown only when the table sends it there. */
  routes: readonly Route[];
  publicOrigin: string;
  logger: Logger;
  /** How long a merged document is reused. */
  ttlMs?: number;
  timeoutMs?: number;
}

/** Fetches, merges and caches the services' documents. */
export class ApiDocs {
  private cached?: { doc: MergedDocument; until: number };
  private pending?: Promise<MergedDocument>;

  constructor(private readonly options: ApiDocsOptions) {}

  async document(): Promise<MergedDocument> {
    if (this.cached && this.cached.until > Date.now()) return this.cached.doc;
    this.pending ??= this.build().finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async build(): Promise<MergedDocument> {
    const documents: Array<{ service: string; document: ServiceDocument }> = [];
    const missing: string[] = [];
    await Promise.all(
      [...this.options.pools].map(async ([service, pool]) => {
        // A service with no replicas configured is not deployed (yet): it is simply not in the reference.
        if (pool.status().length === 0) return;
        if (pool.availableCount() === 0) return missing.push(service);
        try {
          const answer = await fetchUpstreamJson<ServiceDocument>(pool, '/openapi.json', {
            timeoutMs: this.options.timeoutMs ?? 3_000,
          });
          if (answer.status === 200 && answer.body?.paths) documents.push({ service, document: answer.body });
          else missing.push(service);
        } catch (err) {
          this.options.logger.warn({ err, service }, 'OpenAPI document unavailable');
          missing.push(service);
        }
      }),
    );
    const order = [...this.options.pools.keys()];
    documents.sort((a, b) => order.indexOf(a.service) - order.indexOf(b.service));
    missing.sort((a, b) => order.indexOf(a) - order.indexOf(b));
    const doc = mergeDocuments(documents, missing, this.options.publicOrigin, this.options.routes);
    // A document missing a service is only kept briefly, so it fills in once the service is up.
    const ttl = missing.length ? 5_000 : (this.options.ttlMs ?? 60_000);
    this.cached = { doc, until: Date.now() + ttl };
    return doc;
  }
}

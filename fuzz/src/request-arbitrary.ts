import fc from 'fast-check';
import {
  hostileString,
  hostileValue,
  objectFor,
  valueFor,
  wrongType,
  type JsonSchema,
} from './schema-arbitrary';

interface DocParameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: JsonSchema;
}
interface DocOperation {
  'x-access'?: string;
  parameters?: DocParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, DocOperation>>;
}

/** One route of the merged document. */
export interface Operation {
  method: string;
  /** The document's path, e.g. /api/posts/{id}. */
  template: string;
  /** Who may call it, as the document's x-access says: public, signed-in, teacher or admin, admin. */
  access: string;
  pathParams: string[];
  query: DocParameter[];
  body?: { contentType: string; schema: JsonSchema };
}

export const routeName = (op: Pick<Operation, 'method' | 'template'>) => `${op.method} ${op.template}`;

/** The methods an OpenAPI path item may hold (3.1, "Path Item Object"); its other keys (parameters, summary, x-…) are no route. */
const OPENAPI_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** How many routes (path × method) the document describes: what the fuzzer must cover, counted apart from it. */
export function documentedRouteCount(doc: OpenApiDocument): number {
  return Object.values(doc.paths).reduce(
    (count, item) => count + Object.keys(item).filter((key) => OPENAPI_METHODS.includes(key)).length,
    0,
  );
}

/** Every route of the document, whatever its method: one left out would never be fuzzed. */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [template, byVerb] of Object.entries(doc.paths)) {
    for (const verb of OPENAPI_METHODS) {
      const op = byVerb[verb];
      if (!op) continue;
      const content = Object.entries(op.requestBody?.content ?? {})[0];
      operations.push({
        method: verb.toUpperCase(),
        template,
        access: op['x-access'] ?? 'unknown',
        pathParams: [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]),
        query: (op.parameters ?? []).filter((p) => p.in === 'query'),
        body: content ? { contentType: content[0], schema: content[1].schema ?? {} } : undefined,
      });
    }
  }
  return operations;
}

export interface FuzzRequest {
  method: string;
  /** Exactly what goes on the request line (already encoded; never normalised by the client). */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** What the request does besides its fields, for the checks that depend on it. */
  flags: {
    /** Sent from another origin, or none, on a state-changing method: the gateway may refuse it first. */
    badOrigin: boolean;
    /** A path id that leaves its segment (`..`, a slash, encoded or not): the path may name another route, or none. */
    pathEscapes: boolean;
    /** A percent sign that starts no escape: the request line itself is refused. */
    urlMalformed: boolean;
    /** A body the framework refuses to parse (broken JSON, another content type) before any route code runs. */
    bodyUnparsable: boolean;
  };
}

/** Ids from the running site (rows that exist) for a path parameter, so requests reach past the 404. */
export type IdPools = (template: string, param: string) => readonly string[];

const enc = encodeURIComponent;

/** Strings a path segment should never be trusted with; the second element says whether it leaves the segment. */
const HOSTILE_SEGMENTS: ReadonlyArray<readonly [string, boolean]> = [
  ['..', true],
  ['.', true],
  ['%2e%2e', true],
  ['%2E%2E%2F%2E%2E', true],
  ['a%2Fb', true],
  ['%2F', true],
  ['..%2F..%2Fetc%2Fpasswd', true],
  ['%252e%252e%252f', false],
  ['%C0%AE%C0%AE', false],
  ['%00', false],
  ['%ZZ', false],
  ['%', false],
  ['%E2%80%AE', false],
  ['%ED%A0%80', false],
  ['null', false],
  ['undefined', false],
  ['0', false],
  ['-1', false],
  ['1e9', false],
  ['9007199254740993', false],
  ['true', false],
  ['%7B%7D', false],
  ['%5B%5D', false],
  ['00000000-0000-0000-0000-000000000000', false],
  ['ffffffff-ffff-ffff-ffff-ffffffffffff', false],
  ['x'.repeat(400), false],
  ['a%20b', false],
  ['%3Cscript%3E', false],
];

function segmentArbitrary(pool: readonly string[]): fc.Arbitrary<{ segment: string; escapes: boolean }> {
  const plain = (s: fc.Arbitrary<string>) => s.map((segment) => ({ segment, escapes: false }));
  const choices: Array<fc.WeightedArbitrary<{ segment: string; escapes: boolean }>> = [
    { weight: 2, arbitrary: plain(fc.uuid()) },
    { weight: 1, arbitrary: plain(fc.uuid().map((u) => u.toUpperCase())) },
    {
      weight: 1,
      arbitrary: plain(
        fc
          .uuid()
          .map((u) => `{${u}}`)
          .map(enc),
      ),
    },
    {
      weight: 3,
      arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS).map(([segment, escapes]) => ({ segment, escapes })),
    },
    { weight: 2, arbitrary: plain(hostileString().map((s) => enc(s.replace(/[\ud800-\udfff]/g, '\ufffd')))) },
  ];
  if (pool.length) {
    const known = fc.constantFrom(...pool);
    choices.push(
      { weight: 4, arbitrary: plain(known) },
      { weight: 1, arbitrary: plain(known.map((id) => id.toUpperCase())) },
      { weight: 1, arbitrary: plain(known.map((id) => `${id}%00`)) },
      { weight: 1, arbitrary: plain(known.map((id) => ` ${id}`).map(enc)) },
    );
  }
  return fc.oneof(...choices);
}

/** A query value: short enough to stay under Node's 16 KiB header limit, except the rare one meant to pass it. */
function queryValue(schema: JsonSchema | undefined): fc.Arbitrary<string> {
  const clean = (s: string) => enc(s.replace(/[\ud800-\udfff]/g, '\ufffd').slice(0, 1_500));
  return fc.oneof(
    {
      weight: 30,
      arbitrary: valueFor(schema).map((v) => clean(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))),
    },
    { weight: 10, arbitrary: hostileString().map(clean) },
    {
      weight: 10,
      arbitrary: fc.constantFrom(
        '%ZZ',
        '%',
        '%00',
        '%ED%A0%80',
        '-1',
        '1.5',
        '1e999',
        'NaN',
        '',
        '[]',
        '%5B%5D',
      ),
    },
    { weight: 1, arbitrary: fc.constant('q'.repeat(17_000)) },
  );
}

/** `?name=value&…` from the documented parameters, plus junk keys, repeats and bad escapes. */
function queryArbitrary(params: DocParameter[]): fc.Arbitrary<string> {
  const documented = params.map((p) =>
    fc.option(
      fc
        .array(queryValue(p.schema), { minLength: 1, maxLength: 2 })
        .map((values) => values.map((v) => `${enc(p.name)}=${v}`)),
      { freq: 3 },
    ),
  );
  const junkKey = fc.constantFrom(
    '__proto__',
    '__proto__[isAdmin]',
    'constructor[prototype][x]',
    'a[]',
    '',
    '%00',
    'q[$ne]',
    'x'.repeat(300),
    '%ZZ',
  );
  const junk = fc.array(
    fc.tuple(junkKey, queryValue(undefined)).map(([k, v]) => `${k}=${v}`),
    { maxLength: 3 },
  );
  return fc.tuple(fc.tuple(...documented), junk, fc.boolean()).map(([docParts, junkParts, bare]) => {
    const parts = [...docParts.flatMap((p) => p ?? []), ...junkParts];
    if (!parts.length) return bare ? '?' : '';
    return `?${parts.join('&')}`;
  });
}

type Body = { bytes: Buffer; contentType?: string };

const JSON_TYPES = fc.oneof(
  { weight: 12, arbitrary: fc.constant<string | undefined>('application/json') },
  {
    weight: 1,
    arbitrary: fc.constantFrom<string | undefined>(
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/json; charset=utf-16',
      'application/vnd.api+json',
      'text/plain',
      'text/html',
      'application/xml',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
      'multipart/form-data; boundary=zzz',
      'application/octet-stream',
      '*/*',
      '',
      undefined,
    ),
  },
);

/** Every path to a value inside a JSON example (object keys and array indexes), the root excluded. */
function pathsIn(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (!value || typeof value !== 'object') return [];
  const entries: Array<[string | number, unknown]> = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : Object.entries(value);
  return entries.flatMap(([key, v]) => [[...prefix, key], ...pathsIn(v, [...prefix, key])]);
}

/** A deep copy of `value` with the value at `path` replaced (or deleted when `replacement` is DELETE). */
const DELETE = Symbol('delete');
function replaceAt(value: unknown, path: Array<string | number>, replacement: unknown): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (replacement === DELETE) {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else parent[last] = replacement;
  return copy;
}

/**
 * Bodies grown from a known-good example (the authz matrix's body for the route): as is, then with one value
 * anywhere in it (nested ones too) replaced by a hostile one, or removed. These reach past the first validation
 * error into the service code, which bodies drawn from the schema alone rarely do (array items are untyped there).
 */
function fromExample(example: unknown): fc.Arbitrary<unknown> {
  const paths = pathsIn(example);
  if (!paths.length) return fc.constant(example);
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(example) },
    {
      weight: 4,
      arbitrary: fc
        .tuple(fc.constantFrom(...paths), hostileValue())
        .map(([path, bad]) => replaceAt(example, path, bad)),
    },
    { weight: 1, arbitrary: fc.constantFrom(...paths).map((path) => replaceAt(example, path, DELETE)) },
  );
}

/** Bodies for a JSON route: valid ones, one field wrong, a required one missing, extras, another shape, bad JSON. */
function jsonBody(schema: JsonSchema, examples: readonly unknown[]): fc.Arbitrary<Body> {
  const fromSchema = schema.type === 'object' || schema.properties ? objectFor(schema) : valueFor(schema);
  const valid = examples.length
    ? fc.oneof(
        { weight: 1, arbitrary: fromSchema },
        { weight: 2, arbitrary: fc.oneof(...examples.map(fromExample)) },
      )
    : fromSchema;
  const keys = Object.keys(schema.properties ?? {});
  const value: fc.Arbitrary<unknown> = fc.oneof(
    { weight: 4, arbitrary: valid },
    {
      weight: 3,
      arbitrary: keys.length
        ? fc
            .tuple(valid, fc.constantFrom(...keys), hostileValue())
            .map(([v, k, bad]) => ({ ...(v as object), [k]: bad }))
        : hostileValue(),
    },
    {
      weight: 2,
      arbitrary: keys.length
        ? fc.tuple(valid, fc.constantFrom(...keys)).map(([v, k]) => {
            const copy = { ...(v as Record<string, unknown>) };
            delete copy[k];
            return copy;
          })
        : fc.constant({}),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          valid,
          fc.dictionary(
            fc.constantFrom('isAdmin', 'role', 'id', 'authorId', 'approved', 'createdAt', 'extra', '$where'),
            wrongType(),
            { minKeys: 1, maxKeys: 3 },
          ),
        )
        .map(([v, extra]) =>
          typeof v === 'object' && v && !Array.isArray(v) ? { ...extra, ...v, ...extra } : v,
        ),
    },
    { weight: 1, arbitrary: hostileValue() },
  );
  const text = fc.oneof(
    { weight: 10, arbitrary: value.map((v) => Buffer.from(JSON.stringify(v) ?? 'null', 'utf8')) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          value,
          fc.constantFrom(
            'truncate',
            'trailing',
            'single',
            'garbage',
            'empty',
            'bom',
            'latin1',
            'infinity',
            'duplicate',
            'huge-integer',
            'deep',
          ),
        )
        .map(([v, how]) => {
          const json = JSON.stringify(v) ?? 'null';
          // Still JSON, but what JSON.stringify never writes: a number that parses to Infinity, a key given twice
          // (the last one wins), an integer past 2^53; all on the first key of an object body.
          const key = v && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v)[0] : undefined;
          const withExtra = (literal: string) =>
            key === undefined
              ? Buffer.from(`[${json},${literal}]`)
              : Buffer.from(`${json.slice(0, -1)},${JSON.stringify(key)}:${literal}}`);
          switch (how) {
            case 'infinity':
              return withExtra('1e999');
            case 'duplicate':
              return withExtra('null');
            case 'huge-integer':
              return withExtra('123456789012345678901234567890');
            case 'deep':
              // Nesting no JSON.stringify call here could write (the recursion of parsers and validators).
              return withExtra(`${'['.repeat(20_000)}${']'.repeat(20_000)}`);
            case 'truncate':
              return Buffer.from(json.slice(0, Math.max(1, json.length - 1)));
            case 'trailing':
              return Buffer.from(`${json},`);
            case 'single':
              return Buffer.from(json.replace(/"/g, "'"));
            case 'garbage':
              return Buffer.from(`{"a":1}}{${json}`);
            case 'empty':
              return Buffer.alloc(0);
            case 'bom':
              return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(json)]);
            default:
              return Buffer.concat([
                Buffer.from('{"title":"'),
                Buffer.from([0xff, 0xfe, 0xc0, 0x80, 0xed, 0xa0, 0x80]),
                Buffer.from('"}'),
              ]);
          }
        }),
    },
  );
  return fc.tuple(text, JSON_TYPES).map(([bytes, contentType]) => ({ bytes, contentType }));
}

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==',
  'base64',
);

/** Bodies for the one multipart route: a real image, other files, other fields, broken boundaries, JSON. */
function multipartBody(): fc.Arbitrary<Body> {
  const boundary = 'fuzzboundary';
  const part = (name: string, filename: string | undefined, type: string, data: Buffer) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename === undefined ? '' : `; filename="${filename}"`}\r\nContent-Type: ${type}\r\n\r\n`,
      ),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
  const multipart = `multipart/form-data; boundary=${boundary}`;
  return fc.oneof(
    fc
      .tuple(
        fc.constantFrom('image', 'file', '', 'image[]'),
        fc.constantFrom(
          'a.png',
          '../../a.png',
          'a.svg',
          'a.php',
          '\u202egnp.exe',
          '',
          'x'.repeat(300) + '.png',
        ),
        fc.constantFrom('image/png', 'image/svg+xml', 'text/html', 'application/octet-stream', ''),
        fc.constantFrom(
          PNG,
          Buffer.from('<svg onload=alert(1)></svg>'),
          Buffer.alloc(0),
          Buffer.from('GIF89a'),
        ),
      )
      .map(([name, filename, type, data]) => ({
        bytes: part(name, filename, type, data),
        contentType: multipart,
      })),
    fc.constant({
      bytes: part('image', undefined, 'text/plain', Buffer.from('not a file')),
      contentType: multipart,
    }),
    fc.constant({ bytes: part('image', 'a.png', 'image/png', PNG).subarray(0, 60), contentType: multipart }),
    fc.constant({ bytes: part('image', 'a.png', 'image/png', PNG), contentType: 'multipart/form-data' }),
    fc.constant({ bytes: Buffer.from('{"image":"x"}'), contentType: 'application/json' }),
    fc.constant({ bytes: Buffer.alloc(0), contentType: multipart }),
  );
}

/** A body sent where none is documented (a DELETE or POST without one). */
const strayBody: fc.Arbitrary<Body | undefined> = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  {
    weight: 1,
    arbitrary: fc
      .jsonValue({ maxDepth: 2 })
      .map((v) => ({ bytes: Buffer.from(JSON.stringify(v) ?? 'null'), contentType: 'application/json' })),
  },
  {
    weight: 1,
    arbitrary: fc.constant({ bytes: Buffer.from('{"broken":'), contentType: 'application/json' }),
  },
  {
    weight: 1,
    arbitrary: fc.constant({
      bytes: Buffer.from('a=1&b=2'),
      contentType: 'application/x-www-form-urlencoded',
    }),
  },
);

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether a body gets past the framework's parsers: well-formed JSON sent as JSON, or a multipart upload. */
function parsable(body: Body): boolean {
  if (body.contentType === 'multipart/form-data; boundary=fuzzboundary')
    return body.bytes.includes('--fuzzboundary\r\n');
  if (body.contentType !== 'application/json' && body.contentType !== 'application/json; charset=utf-8')
    return false;
  try {
    // Fastify's secure JSON parser also refuses `__proto__` and `constructor.prototype` keys as invalid JSON.
    return !hasPrototypeKeys(JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body.bytes)));
  } catch {
    return false;
  }
}

function hasPrototypeKeys(value: unknown, depth = 0): boolean {
  if (!value || typeof value !== 'object' || depth > 50) return false;
  const record = value as Record<string, unknown>;
  if (Object.prototype.hasOwnProperty.call(record, '__proto__')) return true;
  const ctor = Object.prototype.hasOwnProperty.call(record, 'constructor') ? record.constructor : undefined;
  if (ctor && typeof ctor === 'object' && Object.prototype.hasOwnProperty.call(ctor, 'prototype'))
    return true;
  return Object.values(record).some((v) => hasPrototypeKeys(v, depth + 1));
}

/** Whether every percent escape of a request target decodes (to UTF-8); the HTTP layer refuses one that does not. */
function decodable(target: string): boolean {
  try {
    decodeURIComponent(target.split('?')[0]);
    return true;
  } catch {
    return false;
  }
}

/** Every request for one route: path ids, query, body and headers, each drawn from the route's schemas. */
export function requestArbitrary(
  op: Operation,
  pools: IdPools,
  origin: string,
  examples: readonly unknown[] = [],
): fc.Arbitrary<FuzzRequest> {
  const segments = fc.tuple(...op.pathParams.map((name) => segmentArbitrary(pools(op.template, name))));
  const body: fc.Arbitrary<Body | undefined> = SAFE_METHODS.has(op.method)
    ? fc.constant(undefined)
    : op.body?.contentType.startsWith('multipart/')
      ? multipartBody()
      : op.body
        ? fc.oneof(
            { weight: 12, arbitrary: jsonBody(op.body.schema, examples) },
            { weight: 1, arbitrary: strayBody },
          )
        : strayBody;
  const originHeader = SAFE_METHODS.has(op.method)
    ? fc.constant<string | undefined>(origin)
    : fc.oneof(
        { weight: 15, arbitrary: fc.constant<string | undefined>(origin) },
        {
          weight: 1,
          arbitrary: fc.constantFrom<string | undefined>(undefined, 'null', 'https://evil.example'),
        },
      );
  const extraHeaders = fc.oneof(
    { weight: 6, arbitrary: fc.constant<Record<string, string>>({}) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Record<string, string>>(
        { accept: 'text/html' },
        { accept: 'application/xml' },
        { 'x-forwarded-for': '127.0.0.1' },
        { 'x-http-method-override': 'DELETE' },
        { 'accept-encoding': 'gzip, br' },
        { 'content-encoding': 'gzip' },
        { 'if-none-match': '"x"' },
        { range: 'bytes=0-1' },
      ),
    },
  );
  return fc
    .tuple(segments, queryArbitrary(op.query), body, originHeader, extraHeaders)
    .map(([ids, query, b, from, extra]) => {
      let i = 0;
      const path = op.template.replace(/\{[^}]+\}/g, () => ids[i++].segment) + query;
      const headers: Record<string, string> = { ...extra };
      if (from !== undefined) headers.origin = from;
      if (b?.contentType !== undefined) headers['content-type'] = b.contentType;
      return {
        method: op.method,
        path,
        headers,
        body: b?.bytes,
        flags: {
          badOrigin: !SAFE_METHODS.has(op.method) && from !== origin,
          pathEscapes: ids.some((s) => s.escapes || s.segment === ''),
          urlMalformed: !decodable(path),
          bodyUnparsable: b !== undefined && !parsable(b),
        },
      };
    });
}

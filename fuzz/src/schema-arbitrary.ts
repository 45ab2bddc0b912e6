import fc from 'fast-check';

/** The JSON Schema subset the services' zod schemas are documented with (see each service's /openapi.json). */
export type JsonSchema = {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  default?: unknown;
  $ref?: string;
};

/** Longest string generated in full; a schema allowing more gets its exact boundary only now and then. */
const BIG = 20_000;

/** Strings that have broken parsers, databases and renderers: control characters, lone surrogates, bidi, NUL. */
export const NASTY_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\udc00\ud800',
  '\u202eevil\u202c',
  '\u200f\u05e9\u05dc\u05d5\u05dd',
  '\u0645\u0631\u062d\u0628\u0627',
  '\ufeffbom',
  '\u200b\u200c\u200d',
  'e\u0301\u0301\u0301\u0301',
  '\u{1f600}\u{1f469}\u200d\u{1f469}\u200d\u{1f467}',
  '\r\n\t\u000b\u000c',
  '\u0085\u2028\u2029',
  '<script>alert(1)</script>',
  '"\'`;--',
  '${7*7}{{7*7}}',
  '../../../../etc/passwd',
  '%00%2e%2e%2f',
  '\\u0000',
  'null',
  'undefined',
  'NaN',
  '-0',
  '1e400',
  'true',
  '[]',
  '{}',
];

/** A JSON value of the wrong kind for almost any field. */
export function wrongType(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom<unknown>(
      null,
      true,
      false,
      0,
      -1,
      1.5,
      -0,
      1e308,
      Number.MAX_SAFE_INTEGER + 2,
      [],
      {},
      [null],
      { a: 1 },
    ),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.array(fc.string(), { maxLength: 3 }),
    fc.constant(JSON.parse('{"__proto__":{"isAdmin":true,"role":"admin"}}') as unknown),
    fc.constant({ constructor: { prototype: { isAdmin: true } } }),
  );
}

/** Any string worth trying: the nasty list, unicode (lone surrogates included), and oversized ones. */
export function hostileString(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('x'.repeat(5_000), '\u{1f600}'.repeat(3_000), 'é'.repeat(BIG + 1)),
    },
  );
}

export function hostileValue(): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 8, arbitrary: wrongType() },
    { weight: 8, arbitrary: hostileString() },
    { weight: 1, arbitrary: fc.constant(deeplyNested(200)) },
  );
}

function deeplyNested(depth: number): unknown {
  let value: unknown = 'deep';
  for (let i = 0; i < depth; i++) value = i % 2 ? { a: value } : [value];
  return value;
}

const UUID = fc.uuid();

function stringOfLength(length: number): fc.Arbitrary<string> {
  return fc.constantFrom('a', 'Ω', '\u{1f600}').map((unit) => {
    // Schema lengths are counted in UTF-16 code units (zod); an astral character is two of them.
    const width = unit.length;
    return unit.repeat(Math.floor(length / width)) + 'b'.repeat(length % width);
  });
}

function stringFor(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.format === 'uuid')
    return fc.oneof(
      UUID,
      UUID.map((u) => u.toUpperCase()),
      fc.constantFrom('00000000-0000-0000-0000-000000000000', 'not-a-uuid', ''),
    );
  if (schema.format === 'uri' || schema.format === 'url')
    return fc.oneof(
      fc.webUrl(),
      fc.constantFrom(
        'javascript:alert(1)',
        'http://127.0.0.1/',
        'file:///etc/passwd',
        'http://[::1]:22/',
        '',
      ),
    );
  if (schema.format === 'email')
    return fc.oneof(fc.emailAddress(), fc.constantFrom('a@b', '@', 'x'.repeat(300) + '@school.test'));
  const min = schema.minLength ?? 0;
  const max = schema.maxLength;
  const choices: Array<fc.Arbitrary<string>> = [
    fc.string({ minLength: min, maxLength: Math.max(min, Math.min(max ?? 30, 30)) }),
  ];
  choices.push(
    fc.string({ unit: 'grapheme', minLength: min, maxLength: Math.max(min, Math.min(max ?? 20, 20)) }),
  );
  choices.push(stringOfLength(min));
  if (min > 0) choices.push(stringOfLength(min - 1));
  if (max !== undefined && max <= BIG) choices.push(stringOfLength(max), stringOfLength(max + 1));
  if (max !== undefined && max > BIG) choices.push(fc.constantFrom('z'.repeat(max), 'z'.repeat(max + 1)));
  if (max === undefined) choices.push(stringOfLength(BIG));
  return fc.oneof(...choices);
}

function numberFor(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = Math.max(schema.minimum ?? -1e6, Number.MIN_SAFE_INTEGER);
  const max = Math.min(schema.maximum ?? 1e6, Number.MAX_SAFE_INTEGER);
  const edges = [min, max, 0, -1, 1];
  if (schema.minimum !== undefined && schema.minimum > Number.MIN_SAFE_INTEGER)
    edges.push(schema.minimum - 1);
  if (schema.maximum !== undefined && schema.maximum < Number.MAX_SAFE_INTEGER)
    edges.push(schema.maximum + 1);
  const inRange = integer ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true });
  return fc.oneof(
    fc.constantFrom(...edges),
    inRange,
    fc.constantFrom(0.5, -0.5, 1e21, -1e21, 2 ** 31, 2 ** 53),
  );
}

/**
 * Values for a schema: mostly valid, always including its boundaries (the exact min/max length and range and
 * one past them), empty and unicode strings. Invalid kinds come from the mutations in request-arbitrary.ts.
 */
export function valueFor(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || Object.keys(schema).length === 0 || depth > 4)
    return fc.oneof(fc.jsonValue({ maxDepth: 2 }), hostileValue());
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum)
    return fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom(...schema.enum) },
      { weight: 1, arbitrary: fc.constantFrom('', 'ADMIN', 'Teacher', 'none') },
    );
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((s) => valueFor(s, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return stringFor(schema);
    case 'integer':
      return numberFor(schema, true);
    case 'number':
      return numberFor(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items = valueFor(schema.items, depth + 1);
      const min = schema.minItems ?? 0;
      const max = Math.min(schema.maxItems ?? 4, 4);
      const choices: Array<fc.Arbitrary<unknown[]>> = [
        fc.array(items, { minLength: min, maxLength: Math.max(min, max) }),
      ];
      if (min > 0) choices.push(fc.constant([]));
      if (schema.maxItems !== undefined && schema.maxItems <= 200)
        choices.push(fc.array(items, { minLength: schema.maxItems + 1, maxLength: schema.maxItems + 1 }));
      return fc.oneof(...choices);
    }
    case 'object':
      return objectFor(schema, depth);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

export function objectFor(schema: JsonSchema, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const model = Object.fromEntries(
    Object.entries(properties).map(([key, s]) => [key, valueFor(s, depth + 1)]),
  );
  const required = (schema.required ?? []).filter((k) => k in properties);
  return fc.record(model, { requiredKeys: required }) as fc.Arbitrary<Record<string, unknown>>;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A value as a jsonb parameter. JSON.stringify writes a lone UTF-16 surrogate (valid in a JS string, never in text a
 * browser form sends) as a `\ud800` escape, which PostgreSQL's jsonb refuses — a 500. It becomes U+FFFD here, as the
 * driver already does for text columns, so every column stores the same text.
 */
export function jsonb(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'string' ? v.replace(LONE_SURROGATE, '\ufffd') : v,
  );
}

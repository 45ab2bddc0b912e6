import type { z } from 'zod';

/** What a malformed, forged or foreign cursor answers (400): the client starts again from the first page. */
export const BAD_CURSOR_MESSAGE = 'cursor is not valid: ask for the first page again';

/**
 * Keyset paging's opaque cursor (ADR 0042): the last row's sort key as base64url JSON. It is opaque to clients but
 * not secret — every key part is validated on the way back in before it reaches SQL.
 */
export function encodeCursor(key: readonly unknown[]): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

/** The key a cursor carries, or null when it is not one `schema` accepts. */
export function decodeCursor<S extends z.ZodType>(cursor: string, schema: S): z.infer<S> | null {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    return parsed.success ? (parsed.data as z.infer<S>) : null;
  } catch {
    return null;
  }
}

/**
 * A PostgreSQL timestamptz to the microsecond, in UTC (`YYYY-MM-DDTHH:MM:SS.ffffffZ`), as a cursor carries it: a
 * JavaScript Date keeps only milliseconds, and rows created in the same millisecond would be skipped or repeated.
 */
export const MICROSECOND_TIMESTAMP = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3})\d{3}Z$/;

/** True when the timestamp is a real instant (not 2024-02-31), so PostgreSQL will not refuse it with a 500. */
export function isRealTimestamp(value: string): boolean {
  const match = MICROSECOND_TIMESTAMP.exec(value);
  if (!match) return false;
  const millis = Date.parse(`${match[1]}Z`);
  return !Number.isNaN(millis) && new Date(millis).toISOString() === `${match[1]}Z`;
}

/** The escape of a user's text for `LIKE '%…%'`: `%`, `_` and the escape character itself match literally. */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

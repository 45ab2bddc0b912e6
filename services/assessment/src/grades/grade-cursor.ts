import { z } from 'zod';
import type { GradeKey } from './grade-pages.repository';

/** What a malformed, forged or foreign cursor answers (400): the client starts again from the first page. */
export const BAD_CURSOR_MESSAGE = 'cursor is not valid: ask for the first page again';

/** A PostgreSQL timestamptz to the microsecond, in UTC, as a cursor carries it. */
const MICROSECOND_TIMESTAMP = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3})\d{3}Z$/;

/** True when the timestamp is a real instant (not 2024-02-31), so PostgreSQL will not refuse it with a 500. */
function isRealTimestamp(value: string): boolean {
  const match = MICROSECOND_TIMESTAMP.exec(value);
  if (!match) return false;
  const millis = Date.parse(`${match[1]}Z`);
  return !Number.isNaN(millis) && new Date(millis).toISOString() === `${match[1]}Z`;
}

/** [created_at to the microsecond, id] of the previous page's last row. */
const keySchema = z.tuple([
  z.string().refine(isRealTimestamp),
  z
    .string()
    .uuid()
    .transform((id) => id.toLowerCase()),
]);

/**
 * Keyset paging's opaque cursor (ADR 0042): the last row's sort key as base64url JSON. Opaque to clients but not
 * secret: every part is validated on the way back in before it reaches SQL.
 */
export function encodeGradeCursor(key: GradeKey): string {
  return Buffer.from(JSON.stringify([key.createdAt, key.id]), 'utf8').toString('base64url');
}

/** The key a cursor carries, or null when it is not one. */
export function decodeGradeCursor(cursor: string): GradeKey | null {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  try {
    const parsed = keySchema.safeParse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    return parsed.success ? { createdAt: parsed.data[0], id: parsed.data[1] } : null;
  } catch {
    return null;
  }
}

/**
 * Zod-free checks of an answer's shape, for the few answers the first paint needs (the session, the embedded
 * lessons): zod is about 24 KB gzipped, the largest part of the home route's JavaScript, and is loaded when a
 * later answer needs it (ADR 0023). A guard lists a check for every field of the contract's type, so the type
 * checker fails when a field is added to the contract; each guard's test runs it against the contract's schema.
 */
export type FieldChecks<T> = { readonly [K in keyof T]-?: (value: unknown) => boolean };

export const isString = (v: unknown): v is string => typeof v === 'string';
export const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';
export const isNullableString = (v: unknown): v is string | null => v === null || typeof v === 'string';
export const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
/** z.string().uuid(): RFC 9562 layout, version 1–8 (or the nil/max UUID). */
export const isUuid = (v: unknown): v is string =>
  typeof v === 'string' &&
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/.test(
    v,
  );
/** One of a union's values; `Record<U, true>` makes the type checker insist on exactly the union's members. */
export const oneOf =
  <U extends string>(values: Record<U, true>) =>
  (v: unknown): v is U =>
    typeof v === 'string' && Object.hasOwn(values, v);

/** True when `value` is an object whose every listed field passes; extra fields are dropped as zod does. */
export function matchShape<T>(value: unknown, checks: FieldChecks<T>): value is T {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return Object.entries(checks).every(([key, check]) => (check as (v: unknown) => boolean)(record[key]));
}

/** A copy with the listed fields only (zod's object parsing strips unknown keys the same way). */
export function pickShape<T>(value: T, checks: FieldChecks<T>): T {
  const record = value as Record<string, unknown>;
  return Object.fromEntries(Object.keys(checks).map((key) => [key, record[key]])) as T;
}

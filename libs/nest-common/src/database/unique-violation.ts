import { QueryFailedError } from 'typeorm';

/** PostgreSQL's SQLSTATE for a broken unique constraint or index. */
const UNIQUE_VIOLATION = '23505';

/**
 * The name of the unique constraint (or index) a failed insert or update broke — `''` when PostgreSQL names
 * none — or null for any other error. Services compare it with the names their migrations gave.
 */
export function violatedUniqueConstraint(error: unknown): string | null {
  if (!(error instanceof QueryFailedError)) return null;
  const driver = error.driverError as { code?: string; constraint?: string };
  return driver.code === UNIQUE_VIOLATION ? (driver.constraint ?? '') : null;
}

/**
 * A lost race for a unique value as the service's own expected error: `byConstraint` names, per constraint of
 * its migrations, the error to throw instead. Null for any other error (rethrow it as it is).
 */
export function mapUniqueViolation<E>(
  error: unknown,
  byConstraint: Readonly<Record<string, () => E>>,
): E | null {
  const constraint = violatedUniqueConstraint(error);
  if (constraint === null || !Object.hasOwn(byConstraint, constraint)) return null;
  return byConstraint[constraint]();
}

import { QueryFailedError } from 'typeorm';

/** The name of the unique constraint a failed insert or update broke, or null for any other error. */
export function violatedUniqueConstraint(error: unknown): string | null {
  if (!(error instanceof QueryFailedError)) return null;
  const driver = error.driverError as { code?: string; constraint?: string };
  return driver.code === '23505' ? (driver.constraint ?? '') : null;
}

/** The platform's UUID rule (any letter case); ids from routes arrive canonical already. */
export { UUID_PATTERN as UUID } from '@district/nest-common';

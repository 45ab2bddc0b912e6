import { z } from 'zod';
import { loadConfig } from '@district/nest-common';

/**
 * classroom's environment (services/README.md "Configuration"): one zod schema, read once at start by the root
 * module. Compose and Helm pass unset variables as empty strings: those count as unset. Each key is
 * listed with its default in the README.
 */
export const classroomEnvSchema = z.object({
  /** Items (audio lists, lesson plans, slides) one list call answers, newest first. */
  CLASSROOM_LIST_LIMIT: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(5000, 'must be at most 5000')
      .default(500),
  ),
});

export type ClassroomConfig = z.output<typeof classroomEnvSchema>;

export const CLASSROOM_CONFIG = Symbol('CLASSROOM_CONFIG');

/** Reads classroom's settings; a bad value fails the start with every problem listed. */
export function loadClassroomConfig(env: NodeJS.ProcessEnv): ClassroomConfig {
  return loadConfig('classroom', classroomEnvSchema, env);
}

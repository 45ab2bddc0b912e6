import { z } from 'zod';
import { auditServiceSchema } from './audit';

/**
 * The right of access (issue #14 §5, ADRs 0021 and 0036): identity assembles one file with everything the district
 * holds about a person, asking each service that holds people's data (its registry entry declares a
 * `peopleData.holder`) for its part over the bus (request/reply, `<service>.user.export.v1`). Each answers its own
 * records about that person as named sections of plain JSON rows, so adding a table to a service's answer, or a
 * service to the district, needs no change to the contract or to identity.
 */

/** `<service>.user.export.v1` request: whose data. */
export const userExportRequestSchema = z.object({ userId: z.string().uuid() });
export type UserExportRequest = z.infer<typeof userExportRequestSchema>;

/** A service's part: `sections` by name (e.g. `comments`), each a list of that service's rows about the person. */
export const userExportSectionsSchema = z.record(z.string(), z.array(z.record(z.string(), z.unknown())));
export type UserExportSections = z.infer<typeof userExportSectionsSchema>;

/** One service's answer: its name (which must be the one asked) and its sections. */
export const userExportReplySchema = z.object({
  service: auditServiceSchema,
  sections: userExportSectionsSchema,
});
export type UserExportReply = z.infer<typeof userExportReplySchema>;

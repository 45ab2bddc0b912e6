import { z } from 'zod';

/**
 * The right of access (issue #14 §5, ADR 0021): identity assembles one file with everything the district holds
 * about a person, asking each other service for its part over the bus (request/reply,
 * `<service>.user.export.v1`). Each service answers its own records about that person as named sections of plain
 * JSON rows, so adding a table to a service's answer needs no change to the contract or to identity.
 */
export const USER_EXPORT_SERVICES = ['content', 'chat', 'assessment', 'classroom'] as const;
export type UserExportService = (typeof USER_EXPORT_SERVICES)[number];

/** `<service>.user.export.v1` request: whose data. */
export const userExportRequestSchema = z.object({ userId: z.string().uuid() });
export type UserExportRequest = z.infer<typeof userExportRequestSchema>;

/** One service's part: `sections` by name (e.g. `comments`), each a list of that service's rows about the person. */
export const userExportReplySchema = z.object({
  service: z.enum(USER_EXPORT_SERVICES),
  sections: z.record(z.string(), z.array(z.record(z.string(), z.unknown()))),
});
export type UserExportReply = z.infer<typeof userExportReplySchema>;

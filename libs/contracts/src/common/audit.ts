import { z } from 'zod';

/**
 * The audit log of administrative actions (issue #14 §5, ADRs 0021 and 0036). identity keeps it, append-only; its
 * own actions are written in the transaction that makes them, those of every service that declares `audit` in its
 * registry entry arrive as `<service>.audit.recorded.v1` events enqueued in theirs (the platform's `AuditTrail`),
 * and identity records each once.
 */
export const AUDIT_ACTIONS = [
  'user.approved',
  'user.suspended',
  'user.role_changed',
  'user.admin_granted',
  'user.admin_revoked',
  'user.password_reset',
  'user.deleted',
  'grade.deleted',
  'quiz.updated',
  'quiz.deleted',
  'quiz.accommodation_set',
  'chatroom.created',
  'chatroom.updated',
  'chatroom.deleted',
  'comment.approved',
  'comment.unapproved',
  'comment.deleted',
  'roster.imported',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
export const AUDIT_TARGET_TYPES = ['user', 'grade', 'quiz', 'chatroom', 'comment', 'roster_import'] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];
/**
 * Where an action happened: a service's registry name (lower-case letters and digits, as the launcher's registry
 * requires; at most 20, the audit log's column). Which names identity accepts is the registry's business (the
 * services that declare `peopleData.audit`), not the contract's, so a new service needs no edit here.
 */
export const auditServiceSchema = z.string().regex(/^[a-z][a-z0-9]{0,19}$/, 'must be a service name');
export type AuditService = z.infer<typeof auditServiceSchema>;

/** Who did it and from where, as the service saw the request (the client address the gateway forwarded). */
export interface AuditStamp {
  actorId: string;
  actorName: string;
  ip: string | null;
}

/** One administrative action: who, what, on what, when, from where. */
export const auditRecordSchema = z.object({
  actorId: z.string().uuid(),
  actorName: z.string().max(200),
  action: z.enum(AUDIT_ACTIONS),
  targetType: z.enum(AUDIT_TARGET_TYPES),
  targetId: z.string().uuid(),
  /** What the target was called then (a room's name, a quiz title, a person's name), for reading the log later. */
  targetLabel: z.string().max(300),
  /** The change itself where it says more than the action (a new role, a room's changed fields). */
  details: z.record(z.string(), z.unknown()),
  ip: z.string().max(64).nullable(),
  at: z.string().datetime({ offset: true }),
});
export type AuditRecord = z.infer<typeof auditRecordSchema>;

/**
 * `<service>.audit.recorded.v1` (`PeopleDataSubjects.auditRecorded`): the record and the service where the action
 * happened, which must be the subject's first token.
 */
export const auditRecordedEventSchema = z.object({
  service: auditServiceSchema,
  record: auditRecordSchema,
});
export type AuditRecordedEvent = z.infer<typeof auditRecordedEventSchema>;

/** Builds a record from the request's stamp (names and labels cut to the schema's limits). */
export function auditRecord(
  stamp: AuditStamp,
  action: AuditAction,
  target: { type: AuditTargetType; id: string; label?: string },
  details: Record<string, unknown> = {},
  at: Date = new Date(),
): AuditRecord {
  return {
    actorId: stamp.actorId.toLowerCase(),
    actorName: stamp.actorName.slice(0, 200),
    action,
    targetType: target.type,
    targetId: target.id.toLowerCase(),
    targetLabel: (target.label ?? '').slice(0, 300),
    details,
    ip: stamp.ip ? stamp.ip.slice(0, 64) : null,
    at: at.toISOString(),
  };
}

/** An entry of `GET /api/admin/audit-log`. */
export const auditLogEntrySchema = auditRecordSchema.extend({
  id: z.string().uuid(),
  service: auditServiceSchema,
});
export type AuditLogEntry = z.infer<typeof auditLogEntrySchema>;

export const AUDIT_LOG_PAGE_SIZE_MAX = 200;

/** The range's end (exclusive, epoch ms): a day (`2026-11-26`) takes in all of it (UTC); a time is the bound. */
export function auditRangeEnd(to: string): number {
  return /^\d{4}-\d{2}-\d{2}$/.test(to) ? Date.parse(to) + 24 * 3600_000 : Date.parse(to);
}
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    // PostgreSQL text cannot hold NUL: refused here as a bad query, never a database error.
    .refine((v) => !v.includes('\u0000'), 'must not contain NUL characters')
    .optional()
    .transform((v) => (v === '' ? undefined : v));

/**
 * `GET /api/admin/audit-log` query: filters (actor: an id, or part of a name; action; target: an id, or part of
 * its label; a date range, `from` inclusive, `to` exclusive) and paging (`page` from 1, `pageSize` ≤ 200).
 * Newest first.
 */
export const auditLogQuerySchema = z
  .object({
    actor: optionalText(200),
    action: z.enum(AUDIT_ACTIONS).optional(),
    target: optionalText(300),
    from: z.string().datetime({ offset: true }).or(z.string().date()).optional(),
    to: z.string().datetime({ offset: true }).or(z.string().date()).optional(),
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(AUDIT_LOG_PAGE_SIZE_MAX).default(50),
  })
  .strict()
  .refine((q) => !q.from || !q.to || Date.parse(q.from) < auditRangeEnd(q.to), {
    message: '`from` must be before `to`',
    path: ['from'],
  });
export type AuditLogQuery = z.infer<typeof auditLogQuerySchema>;

export interface AuditLogPage {
  entries: AuditLogEntry[];
  total: number;
  page: number;
  pageSize: number;
}

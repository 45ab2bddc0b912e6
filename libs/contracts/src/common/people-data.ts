/**
 * The subjects of the people's-data capability (ADR 0036), one family per service rather than a constant per
 * service: every service that declares `peopleData` in its registry entry publishes and answers on its own
 * `<service>.…` subjects, and identity listens to the whole family with one wildcard durable. The payload schemas
 * are in `SubjectPatternSchemas` (subject-schemas.ts).
 */
export const PeopleDataSubjects = {
  /** A service's administrative action, for identity's audit log (event; enqueued by the platform's AuditTrail). */
  auditRecorded: (service: string) => `${service}.audit.recorded.v1`,
  /** Every service's `auditRecorded`: identity's one durable. */
  auditRecordedAny: '*.audit.recorded.v1',
  /** A service's part of a person's right-of-access file (request/reply, asked by identity). */
  userExport: (service: string) => `${service}.user.export.v1`,
  /** Every service's `userExport`. */
  userExportAny: '*.user.export.v1',
} as const;

/** The service a people's-data subject is about: its first token (`chat.audit.recorded.v1` → `chat`). */
export function subjectService(subject: string): string {
  return subject.split('.', 1)[0];
}

import { Subjects, type AuditRecord, type AuditRecordedEvent } from '@district/contracts';
import type { OutboxService } from '@district/nest-common';
import type { EntityManager } from 'typeorm';

/**
 * assessment's administrative actions for identity's audit log (ADR 0021): `assessment.audit.recorded.v1`,
 * enqueued in the transaction that makes the change, so the record goes out exactly when the change commits.
 */
export async function enqueueAudit(
  outbox: OutboxService,
  tx: EntityManager,
  record: AuditRecord,
): Promise<void> {
  await outbox.enqueue(tx, Subjects.assessmentAuditRecorded, {
    service: 'assessment',
    record,
  } satisfies AuditRecordedEvent);
}

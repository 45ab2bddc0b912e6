import { Subjects, type AuditRecord, type AuditRecordedEvent, type QuizKind } from '@district/contracts';
import type { OutboxService } from '@district/nest-common';
import type { EntityManager } from 'typeorm';

/**
 * assessment's administrative actions for identity's audit log (ADR 0021): `assessment.audit.recorded.v1`,
 * enqueued in the transaction that makes the change, so the record goes out exactly when the change commits.
 */
export async function enqueueAudit(outbox: OutboxService, tx: EntityManager, record: AuditRecord): Promise<void> {
  await outbox.enqueue(tx, Subjects.assessmentAuditRecorded, {
    service: 'assessment',
    record,
  } satisfies AuditRecordedEvent);
}

/** What a result is called in the log (its quiz and pupil, as stored), read before it goes; null when absent. */
export async function gradeAuditTarget(
  tx: EntityManager,
  kind: QuizKind,
  id: string,
): Promise<{ type: 'grade'; id: string; label: string; userId: string } | null> {
  const rows = (await tx.query(`SELECT quiz_title, user_name, user_id FROM grades WHERE kind = $1 AND id = $2`, [
    kind,
    id,
  ])) as { quiz_title: string; user_name: string; user_id: string }[];
  if (rows.length === 0) return null;
  return { type: 'grade', id, label: `${rows[0].quiz_title} — ${rows[0].user_name}`, userId: rows[0].user_id };
}

import { Subjects, type AuditRecord, type AuditRecordedEvent } from '@district/contracts';
import type { OutboxService } from '@district/nest-common';
import type { EntityManager } from 'typeorm';

/**
 * content's administrative actions (comment moderation) for identity's audit log (ADR 0021):
 * `content.audit.recorded.v1`, enqueued in the transaction that makes the change, so the record goes out exactly
 * when the change commits.
 */
export async function enqueueAudit(
  outbox: OutboxService,
  tx: EntityManager,
  record: AuditRecord,
): Promise<void> {
  await outbox.enqueue(tx, Subjects.contentAuditRecorded, {
    service: 'content',
    record,
  } satisfies AuditRecordedEvent);
}

/** What a comment is called in the log (its author, as stored) and where it was, read before it goes. */
export async function commentAuditTarget(
  tx: EntityManager,
  id: string,
): Promise<{
  target: { type: 'comment'; id: string; label: string };
  details: Record<string, unknown>;
} | null> {
  const rows = (await tx.query(`SELECT author_name, author_id, post_id FROM comments WHERE id = $1`, [
    id,
  ])) as {
    author_name: string;
    author_id: string | null;
    post_id: string;
  }[];
  if (rows.length === 0) return null;
  const [row] = rows;
  return {
    target: { type: 'comment', id, label: row.author_name },
    details: { postId: row.post_id, authorId: row.author_id },
  };
}

import { Subjects, type AuditRecord, type AuditRecordedEvent } from '@district/contracts';
import type { OutboxService } from '@district/nest-common';
import type { EntityManager } from 'typeorm';

/**
 * chat's administrative actions (chatroom changes) for identity's audit log (ADR 0021): `chat.audit.recorded.v1`,
 * enqueued in the transaction that makes the change, so the record goes out exactly when the change commits.
 */
export async function enqueueAudit(
  outbox: OutboxService,
  tx: EntityManager,
  record: AuditRecord,
): Promise<void> {
  await outbox.enqueue(tx, Subjects.chatAuditRecorded, {
    service: 'chat',
    record,
  } satisfies AuditRecordedEvent);
}

/** A room's name as stored, read before it goes; null when absent. */
export async function chatroomName(tx: EntityManager, id: string): Promise<string | null> {
  const rows = (await tx.query(`SELECT name FROM chatrooms WHERE id = $1`, [id])) as { name: string }[];
  return rows[0]?.name ?? null;
}

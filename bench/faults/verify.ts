import { Client } from 'pg';
import { PeopleDataSubjects, Subjects } from '@district/contracts';
import { SERVICES } from './stack';

/**
 * What the fault suite checks in the databases once a fault has passed: every acknowledged write is stored (and
 * stored once), and every event the services wrote to their outboxes was published and reached each of its
 * consumers (their inbox holds its id). The subjects with deduplicating consumers are listed here; the others
 * (content.post.*, chat.room.*, assessment.grade.recorded, …) are counted as published.
 */
export const CONSUMERS: Record<string, readonly string[]> = {
  [Subjects.identityUserUpdated]: ['content', 'chat', 'assessment', 'classroom'],
  [Subjects.identityUserDeleted]: ['content', 'chat', 'assessment', 'classroom'],
  [PeopleDataSubjects.auditRecorded('content')]: ['identity'],
  [PeopleDataSubjects.auditRecorded('chat')]: ['identity'],
  [PeopleDataSubjects.auditRecorded('assessment')]: ['identity'],
};

export interface EventCounts {
  /** Outbox rows written in the window, all services. */
  written: number;
  /** …of which the relay has published. */
  published: number;
  /** Consumer deliveries the written events call for (events × their consumers). */
  expectedDeliveries: number;
  /** …found in the consumers' inboxes. */
  delivered: number;
  bySubject: Record<string, { written: number; published: number; expected: number; delivered: number }>;
}

export async function eventCounts(databaseUrl: string, since: Date): Promise<EventCounts> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const counts: EventCounts = {
      written: 0,
      published: 0,
      expectedDeliveries: 0,
      delivered: 0,
      bySubject: {},
    };
    const inboxIds: Record<string, Set<string>> = {};
    for (const schema of SERVICES) {
      const { rows } = await db.query<{ message_id: string }>(
        `SELECT message_id FROM "${schema}".inbox WHERE processed_at >= $1`,
        [since],
      );
      inboxIds[schema] = new Set(rows.map((r) => r.message_id));
    }
    for (const schema of SERVICES) {
      const { rows } = await db.query<{ id: string; subject: string; published: boolean }>(
        `SELECT id, subject, published_at IS NOT NULL AS published FROM "${schema}".outbox WHERE created_at >= $1`,
        [since],
      );
      for (const row of rows) {
        const entry = (counts.bySubject[row.subject] ??= {
          written: 0,
          published: 0,
          expected: 0,
          delivered: 0,
        });
        entry.written += 1;
        counts.written += 1;
        if (row.published) {
          entry.published += 1;
          counts.published += 1;
        }
        for (const consumer of CONSUMERS[row.subject] ?? []) {
          entry.expected += 1;
          counts.expectedDeliveries += 1;
          if (inboxIds[consumer].has(row.id)) {
            entry.delivered += 1;
            counts.delivered += 1;
          }
        }
      }
    }
    return counts;
  } finally {
    await db.end();
  }
}

export interface WriteCheck {
  commentsAcknowledged: number;
  commentsMissing: number;
  gradesAcknowledged: number;
  gradesMissing: number;
  /** Submissions whose every try failed: stored or not, the client was told it failed. */
  gradesUnknown: number;
  /** Rows beyond one per idempotency key. */
  gradeDuplicates: number;
}

export async function checkWrites(
  databaseUrl: string,
  comments: readonly string[],
  grades: ReadonlyMap<string, string | null>,
): Promise<WriteCheck> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const storedComments = new Set(
      (
        await db.query<{ id: string }>(
          'SELECT id::text AS id FROM content.comments WHERE id = ANY($1::uuid[])',
          [[...comments]],
        )
      ).rows.map((r) => r.id),
    );
    const keys = [...grades.keys()];
    const rows = (
      await db.query<{ id: string; key: string }>(
        'SELECT id::text AS id, idempotency_key::text AS key FROM assessment.grades WHERE idempotency_key = ANY($1::uuid[])',
        [keys],
      )
    ).rows;
    const byKey = new Map<string, string[]>();
    for (const row of rows) byKey.set(row.key, [...(byKey.get(row.key) ?? []), row.id]);
    let gradesMissing = 0;
    let gradesUnknown = 0;
    let gradeDuplicates = 0;
    let gradesAcknowledged = 0;
    for (const [key, id] of grades) {
      const stored = byKey.get(key) ?? [];
      gradeDuplicates += Math.max(0, stored.length - 1);
      if (id === null) gradesUnknown += 1;
      else {
        gradesAcknowledged += 1;
        if (!stored.includes(id)) gradesMissing += 1;
      }
    }
    return {
      commentsAcknowledged: comments.length,
      commentsMissing: comments.filter((id) => !storedComments.has(id)).length,
      gradesAcknowledged,
      gradesMissing,
      gradesUnknown,
      gradeDuplicates,
    };
  } finally {
    await db.end();
  }
}

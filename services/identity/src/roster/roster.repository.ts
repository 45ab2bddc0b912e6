import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { RosterClassChangedEvent, RosterSchoolChangedEvent } from '@district/contracts';

/** The roster tables an import writes (migration 1733800000000); names are constants, never input. */
export type RosterTable =
  'schools' | 'academic_sessions' | 'courses' | 'classes' | 'user_roles' | 'enrollments';

/** A stored row as an import compares it: its id, hash, active flag and the columns its events need. */
export interface StoredRow {
  id: string;
  sourced_id: string;
  row_hash: string | null;
  active: boolean;
  [column: string]: unknown;
}

/** One column of an upsert: its name and PostgreSQL type (for the unnest of its values). */
export interface UpsertColumn {
  name: string;
  type: 'text' | 'uuid' | 'date' | 'boolean';
}

interface ClassRow {
  id: string;
  sourced_id: string | null;
  school_id: string;
  title: string;
  active: boolean;
  version: string;
}

/** Tables with updated_at and version (schools, classes): a write touches updated_at too. */
const TOUCHED: ReadonlySet<RosterTable> = new Set(['schools', 'classes']);

/** What a snapshot is owed for. */
export type SnapshotKind = 'school' | 'class';

/** The roster's SQL for imports: rows by sourcedId, batched upserts, bulk deactivation and the snapshots. */
@Injectable()
export class RosterRepository {
  /** The stored rows of `sourcedIds`, locked until `tx` ends. */
  async stored(
    tx: EntityManager,
    table: RosterTable,
    sourcedIds: readonly string[],
    extra: readonly string[] = [],
  ): Promise<Map<string, StoredRow>> {
    if (sourcedIds.length === 0) return new Map();
    const columns = ['id', 'sourced_id', 'row_hash', 'active', ...extra].join(', ');
    const rows = (await tx.query(`SELECT ${columns} FROM ${table} WHERE sourced_id = ANY($1) FOR UPDATE`, [
      sourcedIds,
    ])) as StoredRow[];
    return new Map(rows.map((r) => [r.sourced_id, r]));
  }

  /** Rows of `table` by sourcedId (any state), with `extra` columns: what references resolve to. */
  async lookup(
    tx: EntityManager,
    table: RosterTable,
    sourcedIds: readonly string[],
    extra: readonly string[] = [],
  ): Promise<Map<string, StoredRow>> {
    if (sourcedIds.length === 0) return new Map();
    const columns = ['id', 'sourced_id', 'row_hash', 'active', ...extra].join(', ');
    const rows = (await tx.query(`SELECT ${columns} FROM ${table} WHERE sourced_id = ANY($1)`, [
      [...new Set(sourcedIds)],
    ])) as StoredRow[];
    return new Map(rows.map((r) => [r.sourced_id, r]));
  }

  /**
   * Inserts or updates rows by sourced_id in one statement (`sourced_id`, `active` and `row_hash` are added to
   * `columns`); answers each row's id by sourcedId.
   */
  async upsert(
    tx: EntityManager,
    table: RosterTable,
    columns: readonly UpsertColumn[],
    rows: readonly { sourcedId: string; active: boolean; hash: string; values: unknown[] }[],
  ): Promise<Map<string, string>> {
    if (rows.length === 0) return new Map();
    const all: UpsertColumn[] = [
      { name: 'sourced_id', type: 'text' },
      ...columns,
      { name: 'active', type: 'boolean' },
      { name: 'row_hash', type: 'text' },
    ];
    const params = all.map((_, i) =>
      rows.map((r) => {
        if (i === 0) return r.sourcedId;
        if (i === all.length - 2) return r.active;
        if (i === all.length - 1) return r.hash;
        return r.values[i - 1] ?? null;
      }),
    );
    const names = all.map((c) => c.name).join(', ');
    const unnest = all.map((c, i) => `$${i + 1}::${c.type}[]`).join(', ');
    const set = all
      .slice(1)
      .map((c) => `${c.name} = EXCLUDED.${c.name}`)
      .concat(TOUCHED.has(table) ? ['updated_at = now()'] : [])
      .join(', ');
    const result = (await tx.query(
      `INSERT INTO ${table} (${names}) SELECT * FROM unnest(${unnest})
       ON CONFLICT (sourced_id) DO UPDATE SET ${set} RETURNING id, sourced_id`,
      params,
    )) as { id: string; sourced_id: string }[];
    return new Map(result.map((r) => [r.sourced_id, r.id]));
  }

  /**
   * A bulk file's absent rows: rostered rows of `table` this import did not stage from `file` turn inactive (and
   * forget their hash, so the row applies again should it come back). Answers them with the `extra` columns.
   */
  async deactivateAbsent(
    tx: EntityManager,
    table: RosterTable,
    importId: string,
    file: string,
    extra: readonly string[] = [],
  ): Promise<StoredRow[]> {
    const returning = ['id', 'sourced_id', 'row_hash', 'active', ...extra].join(', ');
    const [rows] = (await tx.query(
      `UPDATE ${table} t SET active = false, row_hash = NULL${TOUCHED.has(table) ? ', updated_at = now()' : ''}
        WHERE t.sourced_id IS NOT NULL AND t.active
          AND NOT EXISTS (SELECT 1 FROM roster_import_rows r
                           WHERE r.import_id = $1 AND r.file = $2 AND r.sourced_id = t.sourced_id)
        RETURNING ${returning}`,
      [importId, file],
    )) as [StoredRow[], number];
    return rows;
  }

  /**
   * Enqueues many events in one statement through the schema's outbox_enqueue (ADR 0037), each with the values
   * OutboxService.eventValues checked: one round trip for a batch's events instead of one each.
   */
  async enqueueMany(
    tx: EntityManager,
    events: readonly [id: string, subject: string, payload: string, headers: string][],
  ): Promise<void> {
    if (events.length === 0) return;
    // Qualified as the platform qualifies it (the data source's schema; else the search_path decides).
    const schema = (tx.dataSource.options as { schema?: string }).schema;
    const fn = schema ? `"${schema.replace(/"/g, '""')}"."outbox_enqueue"` : 'outbox_enqueue';
    await tx.query(
      `SELECT ${fn}(s, p::jsonb, h::jsonb, i) FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[])
         WITH ORDINALITY AS e(i, s, p, h, n) ORDER BY n`,
      [events.map((e) => e[0]), events.map((e) => e[1]), events.map((e) => e[2]), events.map((e) => e[3])],
    );
  }

  /** Notes that the classes or schools `ids` changed: the import publishes their snapshot once (publishOwed). */
  async oweSnapshots(tx: EntityManager, kind: SnapshotKind, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await tx.query(
      `INSERT INTO roster_snapshots_owed (kind, id) SELECT $1, unnest($2::uuid[]) ON CONFLICT DO NOTHING`,
      [kind, ids],
    );
  }

  /**
   * Takes owed snapshots of `kind` off the list, in the caller's transaction (which publishes them: a rollback puts
   * them back): up to `limit` of any, or those of `ids` still owed. Rows another transaction is taking are passed
   * over, so two replicas never publish the same owed snapshot twice.
   */
  async takeOwed(
    tx: EntityManager,
    kind: SnapshotKind,
    which: { limit: number } | { ids: readonly string[] },
  ): Promise<string[]> {
    const byIds = 'ids' in which;
    if (byIds && which.ids.length === 0) return [];
    const [rows] = (await tx.query(
      `DELETE FROM roster_snapshots_owed WHERE (kind, id) IN (
         SELECT kind, id FROM roster_snapshots_owed WHERE kind = $1 ${byIds ? 'AND id = ANY($2::uuid[])' : ''}
          ORDER BY id ${byIds ? '' : 'LIMIT $2'} FOR UPDATE SKIP LOCKED)
       RETURNING id::text AS id`,
      [kind, byIds ? which.ids : which.limit],
    )) as [{ id: string }[], number];
    return rows.map((r) => r.id);
  }

  /** Active members per class of `classIds` (the 5,000-member limit). */
  async memberCounts(tx: EntityManager, classIds: readonly string[]): Promise<Map<string, number>> {
    if (classIds.length === 0) return new Map();
    const rows = (await tx.query(
      `SELECT class_id, count(*)::int AS n FROM enrollments WHERE active AND class_id = ANY($1) GROUP BY class_id`,
      [classIds],
    )) as { class_id: string; n: number }[];
    return new Map(rows.map((r) => [r.class_id, r.n]));
  }

  /** The classes' snapshots, each at a new version stored into classes.version, with the SIS ids of all. */
  async classSnapshots(tx: EntityManager, classIds: readonly string[]): Promise<RosterClassChangedEvent[]> {
    if (classIds.length === 0) return [];
    const classes = (await tx.query(
      `UPDATE classes SET version = nextval('roster_version_seq') WHERE id = ANY($1)
        RETURNING id, sourced_id, school_id, title, active, version::text AS version`,
      [classIds],
    )) as [ClassRow[], number];
    const members = (await tx.query(
      `SELECT e.class_id, e.role, e.user_id::text AS user_id, u.sourced_id FROM enrollments e
         JOIN users u ON u.id = e.user_id
        WHERE e.active AND e.class_id = ANY($1) ORDER BY e.user_id`,
      [classIds],
    )) as { class_id: string; role: 'teacher' | 'student'; user_id: string; sourced_id: string | null }[];
    const byClass = new Map<string, { teacher: string[]; student: string[]; sis: Record<string, string> }>();
    for (const m of members) {
      const entry = byClass.get(m.class_id) ?? { teacher: [], student: [], sis: {} };
      entry[m.role].push(m.user_id);
      if (m.sourced_id) entry.sis[m.user_id] = m.sourced_id;
      byClass.set(m.class_id, entry);
    }
    return classes[0]
      .sort((a, b) => Number(a.version) - Number(b.version))
      .map((c) => {
        const held = c.active ? byClass.get(c.id) : undefined;
        return {
          classId: c.id,
          schoolId: c.school_id,
          title: c.title,
          active: c.active,
          version: Number(c.version),
          teacherIds: held?.teacher ?? [],
          studentIds: held?.student ?? [],
          sourcedId: c.sourced_id,
          memberSourcedIds: held?.sis ?? {},
        };
      });
  }

  /** The schools' snapshots, each at a new version stored into schools.version. */
  async schoolSnapshots(
    tx: EntityManager,
    schoolIds: readonly string[],
  ): Promise<RosterSchoolChangedEvent[]> {
    if (schoolIds.length === 0) return [];
    const schools = (await tx.query(
      `UPDATE schools SET version = nextval('roster_version_seq') WHERE id = ANY($1)
        RETURNING id, name, active, version::text AS version`,
      [schoolIds],
    )) as [{ id: string; name: string; active: boolean; version: string }[], number];
    const admins = (await tx.query(
      `SELECT school_id, array_agg(DISTINCT user_id::text) AS ids FROM user_roles
        WHERE active AND role = 'administrator' AND school_id = ANY($1) GROUP BY school_id`,
      [schoolIds],
    )) as { school_id: string; ids: string[] }[];
    const bySchool = new Map(admins.map((a) => [a.school_id, [...a.ids].sort()]));
    return schools[0]
      .sort((a, b) => Number(a.version) - Number(b.version))
      .map((s) => ({
        schoolId: s.id,
        name: s.name,
        active: s.active,
        version: Number(s.version),
        adminIds: s.active ? (bySchool.get(s.id) ?? []) : [],
      }));
  }

  /** Academic sessions' titles by sourcedId (a class's term). */
  async sessionTitles(tx: EntityManager, sourcedIds: readonly string[]): Promise<Map<string, string>> {
    if (sourcedIds.length === 0) return new Map();
    const rows = (await tx.query(
      `SELECT sourced_id, title FROM academic_sessions WHERE sourced_id = ANY($1)`,
      [[...new Set(sourcedIds)]],
    )) as { sourced_id: string; title: string }[];
    return new Map(rows.map((r) => [r.sourced_id, r.title]));
  }
}

import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type {
  RosterImport,
  RosterImportError,
  RosterImportStatus,
  RosterImportSummary,
} from '@district/contracts';

/** An import's running counts, written with each batch. */
export interface ImportCounts {
  processed: number;
  created: number;
  updated: number;
  deactivated: number;
  errorCount: number;
}

interface ImportRow {
  id: string;
  status: RosterImportStatus;
  file_name: string;
  created_at: Date;
  finished_at: Date | null;
  total: number;
  processed: number;
  created: number;
  updated: number;
  deactivated: number;
  error_count: number;
  failure: string | null;
}

const SUMMARY_COLUMNS = `id, status, file_name, created_at, finished_at, total, processed, created, updated,
  deactivated, error_count, failure`;

/** How often a replica waiting for the import turn tries for it again. */
const TURN_POLL_MS = 500;

/** The replica stopped while its import waited for the turn. */
export class ImportTurnAbandoned extends Error {
  constructor() {
    super('the replica stopped while the import waited for its turn');
  }
}

/** A row an import staged (roster_import_rows): its line, and whether it was skipped. */
export interface StagedRow {
  sourcedId: string;
  line: number;
  skipped: boolean;
}

/** The SQL of roster_imports, roster_import_errors and the staging table roster_import_rows. */
@Injectable()
export class RosterImportsRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /**
   * Imports run one at a time across every identity replica (two bulk files applying at once would each deactivate
   * what the other just wrote, and their batches could deadlock): a session advisory lock on a connection of its own,
   * held until the returned release is called. A replica waiting for it keeps its import queued (its heartbeat goes on)
   * and tries again every `pollMs` until it gets it or `stopped()` says the replica is stopping.
   */
  async holdImportTurn(stopped: () => boolean, pollMs = TURN_POLL_MS): Promise<() => Promise<void>> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      // Tried, not waited on: a replica that is stopping gives up its place at once (ImportTurnAbandoned) instead of
      // waiting in PostgreSQL for another replica's import to end.
      for (;;) {
        const [{ held }] = (await runner.query(
          `SELECT pg_try_advisory_lock(hashtext(current_schema() || ':roster-import')) AS held`,
        )) as { held: boolean }[];
        if (held) break;
        if (stopped()) throw new ImportTurnAbandoned();
        await sleep(pollMs);
        if (stopped()) throw new ImportTurnAbandoned();
      }
    } catch (error) {
      await runner.release();
      throw error;
    }
    return async () => {
      try {
        await runner.query(`SELECT pg_advisory_unlock(hashtext(current_schema() || ':roster-import'))`);
      } finally {
        await runner.release();
      }
    };
  }

  async create(tx: EntityManager, id: string, fileName: string, createdBy: string | null): Promise<void> {
    await tx.query(
      `INSERT INTO roster_imports (id, status, file_name, created_by, heartbeat_at) VALUES ($1, 'queued', $2, $3, now())`,
      [id, fileName.slice(0, 255), createdBy],
    );
  }

  async start(id: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE roster_imports SET status = 'running', started_at = now(), heartbeat_at = now() WHERE id = $1`,
      [id],
    );
  }

  async setTotal(id: string, total: number): Promise<void> {
    await this.dataSource.query(`UPDATE roster_imports SET total = $2, heartbeat_at = now() WHERE id = $1`, [
      id,
      total,
    ]);
  }

  async heartbeat(id: string): Promise<void> {
    await this.dataSource.query(`UPDATE roster_imports SET heartbeat_at = now() WHERE id = $1`, [id]);
  }

  /** The counts after a batch, in the batch's transaction. */
  async progress(tx: EntityManager, id: string, counts: ImportCounts): Promise<void> {
    await tx.query(
      `UPDATE roster_imports SET processed = $2, created = $3, updated = $4, deactivated = $5, error_count = $6,
         heartbeat_at = now() WHERE id = $1`,
      [id, counts.processed, counts.created, counts.updated, counts.deactivated, counts.errorCount],
    );
  }

  async finish(id: string, status: 'done' | 'failed', failure: string | null): Promise<void> {
    await this.dataSource.query(
      // Done: the total becomes the rows read (the early count reads lines, a quoted field may span two).
      `UPDATE roster_imports SET status = $2::text, failure = $3, finished_at = now(), heartbeat_at = now(),
         total = CASE WHEN $2::text = 'done' THEN processed ELSE total END WHERE id = $1`,
      [id, status, failure],
    );
  }

  /** Imports whose replica stopped (no heartbeat for `staleMs`) are failed with `failure`; answers their ids. */
  async failStale(staleMs: number, failure: string): Promise<string[]> {
    const rows = (await this.dataSource.query(
      `UPDATE roster_imports SET status = 'failed', failure = $2, finished_at = now()
        WHERE status IN ('queued', 'running')
          AND coalesce(heartbeat_at, created_at) < now() - make_interval(secs => $1::double precision / 1000)
        RETURNING id`,
      [staleMs, failure],
    )) as [{ id: string }[], number];
    return rows[0].map((r) => r.id);
  }

  async find(id: string): Promise<RosterImport | null> {
    const rows = (await this.dataSource.query(`SELECT ${SUMMARY_COLUMNS} FROM roster_imports WHERE id = $1`, [
      id,
    ])) as ImportRow[];
    if (rows.length === 0) return null;
    return { ...toSummary(rows[0]), errors: await this.errors(id) };
  }

  async list(limit: number): Promise<RosterImportSummary[]> {
    const rows = (await this.dataSource.query(
      `SELECT ${SUMMARY_COLUMNS} FROM roster_imports ORDER BY created_at DESC, id DESC LIMIT $1`,
      [limit],
    )) as ImportRow[];
    return rows.map(toSummary);
  }

  async errors(id: string): Promise<RosterImportError[]> {
    return (await this.dataSource.query(
      `SELECT file, line, field, message FROM roster_import_errors WHERE import_id = $1 ORDER BY seq`,
      [id],
    )) as RosterImportError[];
  }

  /** Appends listed errors numbered from `firstSeq`. */
  async appendErrors(
    tx: EntityManager,
    id: string,
    firstSeq: number,
    errors: readonly RosterImportError[],
  ): Promise<void> {
    if (errors.length === 0) return;
    await tx.query(
      `INSERT INTO roster_import_errors (import_id, seq, file, line, field, message)
       SELECT $1, $2 + n - 1, file, line, field, message
         FROM unnest($3::text[], $4::int[], $5::text[], $6::text[]) WITH ORDINALITY AS e(file, line, field, message, n)`,
      [
        id,
        firstSeq,
        errors.map((e) => e.file),
        errors.map((e) => e.line),
        errors.map((e) => e.field.slice(0, 100)),
        errors.map((e) => e.message),
      ],
    );
  }

  /** Stages the rows of a file; answers the sourcedIds already staged by an earlier line (duplicates). */
  async stage(tx: EntityManager, id: string, file: string, rows: readonly StagedRow[]): Promise<Set<string>> {
    if (rows.length === 0) return new Set();
    const inserted = (await tx.query(
      `INSERT INTO roster_import_rows (import_id, file, sourced_id, line, skipped)
       SELECT $1, $2, s, l, k FROM unnest($3::text[], $4::int[], $5::boolean[]) AS r(s, l, k)
       ON CONFLICT DO NOTHING RETURNING sourced_id`,
      [id, file, rows.map((r) => r.sourcedId), rows.map((r) => r.line), rows.map((r) => r.skipped)],
    )) as { sourced_id: string }[];
    const fresh = new Set(inserted.map((r) => r.sourced_id));
    return new Set(rows.filter((r) => !fresh.has(r.sourcedId)).map((r) => r.sourcedId));
  }

  async markSkipped(
    tx: EntityManager,
    id: string,
    file: string,
    sourcedIds: readonly string[],
  ): Promise<void> {
    if (sourcedIds.length === 0) return;
    await tx.query(
      `UPDATE roster_import_rows SET skipped = true WHERE import_id = $1 AND file = $2 AND sourced_id = ANY($3)`,
      [id, file, sourcedIds],
    );
  }

  /** The line of `sourcedId` in `file` when this import skipped it; null when it did not (or never read it). */
  async skippedLine(tx: EntityManager, id: string, file: string, sourcedId: string): Promise<number | null> {
    const rows = (await tx.query(
      `SELECT line FROM roster_import_rows WHERE import_id = $1 AND file = $2 AND sourced_id = $3 AND skipped`,
      [id, file, sourcedId],
    )) as { line: number }[];
    return rows[0]?.line ?? null;
  }

  /** Whether this import read `sourcedId` in `file` and kept it (an org that is the district, not a school). */
  async staged(tx: EntityManager, id: string, file: string, sourcedId: string): Promise<boolean> {
    const rows = (await tx.query(
      `SELECT 1 FROM roster_import_rows WHERE import_id = $1 AND file = $2 AND sourced_id = $3 AND NOT skipped`,
      [id, file, sourcedId],
    )) as unknown[];
    return rows.length > 0;
  }

  /**
   * Fresh statistics for the staging table, so the anti-join that finds a bulk file's absent rows is planned as a
   * hash join over what was staged (planned as if the table were empty, it is a loop taking seconds).
   */
  async analyzeStaged(): Promise<void> {
    await this.dataSource.query(`ANALYZE roster_import_rows`);
  }

  async clearStaged(id: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM roster_import_rows WHERE import_id = $1`, [id]);
  }
}

function toSummary(row: ImportRow): RosterImportSummary {
  return {
    id: row.id,
    status: row.status,
    fileName: row.file_name,
    createdAt: row.created_at.toISOString(),
    finishedAt: row.finished_at ? row.finished_at.toISOString() : null,
    total: row.total,
    processed: row.processed,
    created: row.created,
    updated: row.updated,
    deactivated: row.deactivated,
    errorCount: row.error_count,
    failure: row.failure,
  };
}

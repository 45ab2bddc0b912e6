import type { EntityManager } from 'typeorm';
import type { Batch } from './roster-batch';
import { parseDate, parseStatus, ROSTER_COLUMNS, type RosterDataFile, type RosterLine } from './roster-files';
import type { RosterImportsRepository } from './roster-imports.repository';
import type { StoredRow } from './roster.repository';

/** The date columns each file has, checked as YYYY-MM-DD when present. */
const DATE_COLUMNS: Partial<Record<RosterDataFile, string[]>> = {
  'academicSessions.csv': ['startDate', 'endDate'],
  'roles.csv': ['beginDate', 'endDate'],
  'enrollments.csv': ['beginDate', 'endDate'],
};

/**
 * The checks every file's rows get before anything is looked up: a sourcedId, once per file; a known status; the
 * required values; well-formed dates. Then the rows are staged (roster_import_rows), skipped ones marked, so a
 * later file's row depending on one can say which line was skipped, and a bulk file's absent rows can be found.
 * Answers the lines staged, for `markSkipped` once the file's own checks have run.
 */
export async function checkAndStage(
  tx: EntityManager,
  imports: RosterImportsRepository,
  batch: Batch,
): Promise<void> {
  const file = batch.file;
  const firstLine = new Map<string, number>();
  const staged: RosterLine[] = [];
  for (const line of batch.lines) {
    const { row } = line;
    if (!row.sourcedId) {
      batch.error(line, 'sourcedId', 'missing required field sourcedId');
      continue;
    }
    const earlier = firstLine.get(row.sourcedId);
    if (earlier !== undefined) {
      batch.error(line, 'sourcedId', `duplicate sourcedId ${row.sourcedId} (also on line ${earlier})`);
      continue;
    }
    firstLine.set(row.sourcedId, line.line);
    staged.push(line);
    if (parseStatus(row.status) === null) {
      batch.error(line, 'status', `bad status "${row.status}": it must be active or tobedeleted`);
      continue;
    }
    const missing = ROSTER_COLUMNS[file].required.find((c) => c !== 'sourcedId' && !row[c]);
    if (missing) {
      batch.error(line, missing, `missing required field ${missing}`);
      continue;
    }
    const badDate = (DATE_COLUMNS[file] ?? []).find((c) => row[c] && parseDate(row[c]) === null);
    if (badDate) {
      batch.error(line, badDate, `bad date "${row[badDate]}": dates are YYYY-MM-DD`);
      continue;
    }
    const [start, end] = DATE_COLUMNS[file] ?? [];
    if (start && end && row[start] && row[end] && row[end] < row[start])
      batch.error(line, end, `${end} ${row[end]} is before ${start} ${row[start]}`);
  }
  const duplicates = await imports.stage(
    tx,
    batch.run.importId,
    file,
    staged.map((l) => ({ sourcedId: l.row.sourcedId, line: l.line, skipped: batch.isSkipped(l) })),
  );
  for (const line of staged)
    if (duplicates.has(line.row.sourcedId) && !batch.isSkipped(line))
      batch.error(line, 'sourcedId', `duplicate sourcedId ${line.row.sourcedId} (also on an earlier line)`);
  batch.stagedLines = staged.filter((l) => !duplicates.has(l.row.sourcedId));
}

/** Marks the staged rows the file's own checks skipped after staging (an unknown reference, a clash). */
export async function markSkipped(
  tx: EntityManager,
  imports: RosterImportsRepository,
  batch: Batch,
  skippedBefore: ReadonlySet<number>,
): Promise<void> {
  const late = batch.stagedLines.filter((l) => batch.isSkipped(l) && !skippedBefore.has(l.line));
  await imports.markSkipped(
    tx,
    batch.run.importId,
    batch.file,
    late.map((l) => l.row.sourcedId),
  );
}

/**
 * A row whose reference does not resolve: "user u123 was skipped (line 14 of users.csv)" when this import skipped
 * the row it names, "unknown userSourcedId u123" otherwise.
 */
export async function referenceError(
  tx: EntityManager,
  imports: RosterImportsRepository,
  batch: Batch,
  line: RosterLine,
  field: string,
  ref: { file: RosterDataFile; label: string; sourcedId: string },
): Promise<void> {
  const skippedAt = await imports.skippedLine(tx, batch.run.importId, ref.file, ref.sourcedId);
  batch.error(
    line,
    field,
    skippedAt === null
      ? `unknown ${field} ${ref.sourcedId}`
      : `${ref.label} ${ref.sourcedId} was skipped (line ${skippedAt} of ${ref.file})`,
  );
}

/** What a row does to its stored row: nothing (same hash, same state), create, update or deactivate. */
export type Decision = 'create' | 'update' | 'deactivate' | null;

export function decide(stored: StoredRow | undefined, hash: string, active: boolean): Decision {
  if (!stored) return active ? 'create' : null;
  if (stored.row_hash === hash && stored.active === active) return null;
  if (stored.active && !active) return 'deactivate';
  return 'update';
}

/** Counts a decision on the batch. */
export function count(batch: Batch, decision: Decision): void {
  if (decision === 'create') batch.counts.created++;
  else if (decision === 'update') batch.counts.updated++;
  else if (decision === 'deactivate') batch.counts.deactivated++;
}

import { ROSTER_IMPORT_ERRORS_MAX, type RosterImportError } from '@district/contracts';
import type { ImportCounts } from './roster-imports.repository';
import type { RosterDataFile, RosterLine } from './roster-files';

/** Who an import acts as: the district administrator who uploaded it (audited as theirs). */
export interface RosterActor {
  id: string;
  name: string;
  ip: string | null;
}

/** An import's state across its batches: counts and how many errors are listed so far. */
export class ImportRun {
  readonly counts: ImportCounts = { processed: 0, created: 0, updated: 0, deactivated: 0, errorCount: 0 };
  listedErrors = 0;
  /**
   * enrollments.csv's classes as its batches go by (ADR 0042, "One snapshot per class per import"): those the last
   * batch changed (their enrolments may go on in the next one), and those already published while the file was
   * read. `settling` turns off for good when a published class comes back: the file is not grouped by class, and
   * its classes wait for the import's end.
   */
  readonly enrolling = { lastBatch: new Set<string>(), published: new Set<string>(), settling: true };

  constructor(
    readonly importId: string,
    readonly actor: RosterActor,
  ) {}
}

/**
 * One batch of one file: what it read and what it decided. Errors and counts are kept here and merged into the run
 * only when the batch's transaction commits; the approvals wait for it too (they go through UsersService, which
 * has transactions of its own).
 */
export class Batch {
  readonly errors: RosterImportError[] = [];
  readonly counts: ImportCounts = { processed: 0, created: 0, updated: 0, deactivated: 0, errorCount: 0 };
  /** Classes and schools whose snapshot changed: noted as owed with the batch (roster_snapshots_owed). */
  readonly classes = new Set<string>();
  readonly schools = new Set<string>();
  /** People whose account role may have changed (roles, enrolments, users.csv rows). */
  readonly roleCheck = new Set<string>();
  /** Approval changes to make after the commit (suspend or approve), through UsersService. */
  readonly approvals: { userId: string; approved: boolean }[] = [];
  /** Events to enqueue with the batch (one statement): the users' first, then the snapshots. */
  readonly events: [subject: string, data: unknown][] = [];
  /** Token versions to write to the session state after the commit. */
  readonly versions: { userId: string; tokenVersion: number }[] = [];
  /** The lines staged in roster_import_rows (checkAndStage). */
  stagedLines: RosterLine[] = [];
  /** The lines this batch skipped. */
  readonly skipped = new Set<number>();

  constructor(
    readonly run: ImportRun,
    readonly file: RosterDataFile,
    readonly lines: readonly RosterLine[],
  ) {
    this.counts.processed = lines.length;
  }

  /** Skips the row at `line` with the reason; it is listed while the run has listed fewer than the maximum. */
  error(line: RosterLine, field: string, message: string): void {
    this.skipped.add(line.line);
    this.counts.errorCount++;
    if (this.run.listedErrors + this.errors.length < ROSTER_IMPORT_ERRORS_MAX)
      this.errors.push({ file: this.file, line: line.line, field, message });
  }

  isSkipped(line: RosterLine): boolean {
    return this.skipped.has(line.line);
  }

  /** The lines still to apply. */
  valid(): RosterLine[] {
    return this.lines.filter((l) => !this.skipped.has(l.line));
  }

  /** Merges the batch into the run once its transaction committed. */
  commit(): void {
    const run = this.run.counts;
    run.processed += this.counts.processed;
    run.created += this.counts.created;
    run.updated += this.counts.updated;
    run.deactivated += this.counts.deactivated;
    run.errorCount += this.counts.errorCount;
    this.run.listedErrors += this.errors.length;
  }

  /** The counts the run will have once this batch commits (written with the batch). */
  countsAfter(): ImportCounts {
    const run = this.run.counts;
    return {
      processed: run.processed + this.counts.processed,
      created: run.created + this.counts.created,
      updated: run.updated + this.counts.updated,
      deactivated: run.deactivated + this.counts.deactivated,
      errorCount: run.errorCount + this.counts.errorCount,
    };
  }
}

import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  auditRecord,
  RosterMessages,
  type RosterImport,
  type RosterImportAccepted,
} from '@district/contracts';
import { PLATFORM_LOGGER, type Logger } from '@district/nest-common';
import { AuditLogRepository } from '../audit/audit-log.repository';
import { ImportRun, type RosterActor } from './roster-batch';
import { ROSTER_DATA_FILES, type ProcessingMode, type RosterDataFile } from './roster-files';
import { RosterImportRunner } from './roster-import.runner';
import { ImportTurnAbandoned, RosterImportsRepository } from './roster-imports.repository';
import { RosterZip } from './roster-zip';
import { RosterImportNotFoundError } from './roster.errors';

/** An import whose replica has written no heartbeat for this long has stopped (ADR 0042). */
export const ROSTER_STALE_MS = 2 * 60_000;
/** How often a replica tells that its imports (running or waiting their turn) are alive. */
const HEARTBEAT_MS = 20_000;
/** Who runs an import started without a person (the demo seed, a benchmark): an id no account has. */
export const ROSTER_SYSTEM_ACTOR: RosterActor = {
  id: '00000000-0000-0000-0000-000000000000',
  name: 'Roster import',
  ip: null,
};

class ImportInterrupted extends Error {
  constructor() {
    super(RosterMessages.interrupted);
  }
}

export interface ImportFileOptions {
  /** Who imports (audited as theirs, and the suspensions it makes); the system actor when absent. */
  createdBy?: RosterActor;
  /** The name shown in the history; the path's own by default. */
  fileName?: string;
}

/**
 * The roster import (ADR 0042): checks a OneRoster 1.2 CSV zip, records the import and applies it in the
 * background, in the replica that took it, one import at a time. `importFile` runs one to the end without HTTP
 * (the demo seed, benchmarks).
 */
@Injectable()
export class RosterImportService implements OnApplicationBootstrap, OnModuleDestroy {
  /** Imports of this replica run one after the other. */
  private queue: Promise<unknown> = Promise.resolve();
  /** The imports this replica holds (running or queued): their heartbeats. */
  private readonly held = new Set<string>();
  private heartbeat?: NodeJS.Timeout;
  private stopping = false;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(RosterImportsRepository) private readonly imports: RosterImportsRepository,
    @Inject(RosterImportRunner) private readonly runner: RosterImportRunner,
    @Inject(AuditLogRepository) private readonly auditLog: AuditLogRepository,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.failInterrupted();
    // Snapshots an import that stopped midway still owed (its committed batches noted them): published in the
    // background, on the queue, so a stopping replica waits for them.
    const owed = this.queue.then(() => this.publishOwed());
    this.queue = owed.catch((err: unknown) =>
      this.logger.warn({ err }, 'roster snapshots owed by an earlier import were not published yet'),
    );
    this.heartbeat = setInterval(() => void this.beat(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** The replica stops: the running import stops between batches and is failed as interrupted. */
  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    clearInterval(this.heartbeat);
    await this.queue.catch(() => undefined);
  }

  /** Imports left running or queued by a replica that stopped (no heartbeat for 2 minutes) are failed. */
  async failInterrupted(staleMs = ROSTER_STALE_MS): Promise<string[]> {
    const ids = await this.imports.failStale(staleMs, RosterMessages.interrupted);
    if (ids.length > 0) this.logger.warn({ ids }, 'roster imports interrupted by a restart marked failed');
    return ids;
  }

  /** Publishes every snapshot an import owes (each class and school once); answers how many. */
  publishOwed(): Promise<number> {
    return this.runner.publishOwed();
  }

  /**
   * Checks the zip at `path` (a refusal throws RosterRefusedError and records nothing), records the import as
   * queued with its audit record, and applies it in the background. The file is removed with its folder when the
   * import ends: `path` must be a file in a temporary folder of its own.
   */
  async accept(path: string, fileName: string, actor: RosterActor): Promise<RosterImportAccepted> {
    const modes = await this.check(path);
    const id = await this.record(fileName, actor);
    void this.enqueue(id, path, modes, actor, true);
    return { id, status: 'queued' };
  }

  /**
   * Runs an import of the zip at `path` to its end, without HTTP, and answers the finished import (status `done`,
   * or `failed` with its `failure`). A zip refused by the checks throws RosterRefusedError and records nothing.
   * The file is left where it is.
   */
  async importFile(path: string, options: ImportFileOptions = {}): Promise<RosterImport> {
    const modes = await this.check(path);
    const actor = options.createdBy ?? ROSTER_SYSTEM_ACTOR;
    const id = await this.record(options.fileName ?? path.split('/').pop() ?? 'roster.zip', actor);
    await this.enqueue(id, path, modes, actor, false);
    return this.find(id);
  }

  async find(id: string): Promise<RosterImport> {
    const found = await this.imports.find(id);
    if (!found) throw new RosterImportNotFoundError();
    return found;
  }

  /** The zip's checks: a zip, a manifest whose files are there, every required column. */
  private async check(path: string): Promise<Map<RosterDataFile, ProcessingMode>> {
    const zip = await RosterZip.open(path);
    try {
      const modes = await zip.manifest();
      await zip.checkHeaders(modes);
      return modes;
    } finally {
      zip.close();
    }
  }

  private async record(fileName: string, actor: RosterActor): Promise<string> {
    const id = randomUUID();
    await this.dataSource.transaction(async (tx) => {
      await this.imports.create(tx, id, fileName, actor === ROSTER_SYSTEM_ACTOR ? null : actor.id);
      if (actor !== ROSTER_SYSTEM_ACTOR)
        await this.auditLog.append(
          tx,
          'identity',
          auditRecord(
            { actorId: actor.id, actorName: actor.name, ip: actor.ip },
            'roster.imported',
            { type: 'roster_import', id, label: fileName },
            { fileName },
          ),
        );
    });
    this.held.add(id);
    return id;
  }

  private enqueue(
    id: string,
    path: string,
    modes: Map<RosterDataFile, ProcessingMode>,
    actor: RosterActor,
    removeFile: boolean,
  ): Promise<void> {
    const next = this.queue.then(() => this.run(id, path, modes, actor, removeFile));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async run(
    id: string,
    path: string,
    modes: Map<RosterDataFile, ProcessingMode>,
    actor: RosterActor,
    removeFile: boolean,
  ): Promise<void> {
    let zip: RosterZip | undefined;
    let release: (() => Promise<void>) | undefined;
    try {
      if (this.stopping) throw new ImportInterrupted();
      release = await this.imports.holdImportTurn(() => this.stopping);
      if (this.stopping) throw new ImportInterrupted();
      const started = Date.now();
      await this.imports.start(id);
      zip = await RosterZip.open(path);
      const files = ROSTER_DATA_FILES.filter((f) => modes.get(f) !== 'absent');
      let total = 0;
      for (const file of files) total += await zip.countRows(file);
      await this.imports.setTotal(id, total);
      const run = new ImportRun(id, actor);
      for (const file of files) {
        await this.runner.applyFile(run, file, zip.rows(file), () => {
          if (this.stopping) throw new ImportInterrupted();
        });
        if (modes.get(file) === 'bulk') await this.runner.applyAbsent(run, file);
      }
      await this.runner.applyRoles(run);
      await this.runner.publishOwed();
      await this.imports.finish(id, 'done', null);
      this.logger.info({ importId: id, ...run.counts, ms: Date.now() - started }, 'roster import done');
    } catch (error) {
      const failure =
        error instanceof ImportInterrupted || error instanceof ImportTurnAbandoned
          ? RosterMessages.interrupted
          : `The import stopped: ${(error as Error).message}`.slice(0, 2000);
      this.logger.error({ err: error, importId: id }, 'roster import failed');
      // What its committed batches changed is published all the same; a stopping replica leaves that to the next
      // start (or the next import), which publishes whatever is still owed.
      if (!(error instanceof ImportInterrupted || error instanceof ImportTurnAbandoned))
        await this.runner.publishOwed().catch(() => undefined);
      await this.imports.finish(id, 'failed', failure).catch(() => undefined);
    } finally {
      zip?.close();
      this.held.delete(id);
      await this.imports.clearStaged(id).catch(() => undefined);
      await release?.().catch(() => undefined);
      if (removeFile) await rm(dirname(path), { recursive: true, force: true });
    }
  }

  private async beat(): Promise<void> {
    for (const id of this.held)
      await this.imports.heartbeat(id).catch((err: unknown) => {
        this.logger.warn({ err, importId: id }, 'roster import heartbeat failed');
      });
  }
}

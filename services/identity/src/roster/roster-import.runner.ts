import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { Subjects } from '@district/contracts';
import {
  OutboxService,
  PLATFORM_LOGGER,
  SessionStateStore,
  type AuthUser,
  type Logger,
} from '@district/nest-common';
import { toUserChangedEvent } from '../users/user.mapper';
import { UsersService } from '../users/users.service';
import { Batch, type ImportRun } from './roster-batch';
import { checkAndStage, markSkipped } from './roster-checks';
import type { RosterDataFile, RosterLine } from './roster-files';
import { RosterImportsRepository } from './roster-imports.repository';
import { RosterMembershipApplier } from './roster-membership.applier';
import { RosterStructureApplier } from './roster-structure.applier';
import { ROLE_CHECK_FILE, RosterUsersRepository } from './roster-users.repository';
import { RosterUsersApplier } from './roster-users.applier';
import { RosterRepository, type RosterTable, type SnapshotKind } from './roster.repository';

/** Rows per batch: each batch is one transaction (its rows, its events, its progress). */
export const ROSTER_BATCH_ROWS = 1_000;
/** Owed snapshots published per transaction (a bulk import's every class). */
const SNAPSHOT_CHUNK = 1_000;

/** Each file's table and the stored columns its absent rows' events need. */
const ABSENT: Partial<Record<RosterDataFile, { table: RosterTable; extra: string[] }>> = {
  'orgs.csv': { table: 'schools', extra: [] },
  'academicSessions.csv': { table: 'academic_sessions', extra: [] },
  'courses.csv': { table: 'courses', extra: [] },
  'classes.csv': { table: 'classes', extra: [] },
  'roles.csv': { table: 'user_roles', extra: ['user_id', 'school_id', 'role'] },
  'enrollments.csv': { table: 'enrollments', extra: ['class_id', 'user_id'] },
};

/**
 * Applies one file's rows in batches, a bulk file's absent rows, and the account roles the roster implies. Every
 * batch is one transaction holding its rows, its listed errors, its progress, its events (outbox) and the
 * snapshots it owes; publishOwed publishes those once each when the import's files are applied.
 */
@Injectable()
export class RosterImportRunner {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(OutboxService) private readonly outbox: OutboxService,
    @Inject(SessionStateStore) private readonly sessions: SessionStateStore,
    @Inject(UsersService) private readonly usersService: UsersService,
    @Inject(RosterRepository) private readonly roster: RosterRepository,
    @Inject(RosterImportsRepository) private readonly imports: RosterImportsRepository,
    @Inject(RosterUsersRepository) private readonly rostered: RosterUsersRepository,
    @Inject(RosterStructureApplier) private readonly structure: RosterStructureApplier,
    @Inject(RosterMembershipApplier) private readonly membership: RosterMembershipApplier,
    @Inject(RosterUsersApplier) private readonly people: RosterUsersApplier,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {}

  /** Applies `rows` of `file` batch by batch; `beforeBatch` may throw to stop (the replica is stopping). */
  async applyFile(
    run: ImportRun,
    file: RosterDataFile,
    rows: AsyncIterable<RosterLine>,
    beforeBatch: () => void,
  ): Promise<void> {
    let lines: RosterLine[] = [];
    for await (const line of rows) {
      lines.push(line);
      if (lines.length < ROSTER_BATCH_ROWS) continue;
      beforeBatch();
      await this.applyBatch(new Batch(run, file, lines));
      lines = [];
    }
    if (lines.length > 0) {
      beforeBatch();
      await this.applyBatch(new Batch(run, file, lines));
    }
  }

  private async applyBatch(batch: Batch): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      await checkAndStage(tx, this.imports, batch);
      const skippedBefore = new Set(batch.skipped);
      await this.applyRows(tx, batch);
      await markSkipped(tx, this.imports, batch, skippedBefore);
      await this.afterRows(tx, batch);
    });
    batch.commit();
    await this.afterCommit(batch);
    if (batch.file === 'enrollments.csv') await this.publishSettled(batch);
  }

  /**
   * While enrollments.csv is read, a class the previous batch changed and this one did not has had all its
   * enrolments (in a file grouped by class, as SIS exports are): its owed snapshot is published now, so the
   * services' projections fill while the import runs rather than all at its end. A class that comes back after
   * being published shows a file in another order: from then on every snapshot waits for the end (each class is
   * published at most twice).
   */
  private async publishSettled(batch: Batch): Promise<void> {
    const enrolling = batch.run.enrolling;
    if (!enrolling.settling) return;
    for (const id of batch.classes)
      if (enrolling.published.has(id)) {
        enrolling.settling = false;
        return;
      }
    const settled = [...enrolling.lastBatch].filter((id) => !batch.classes.has(id));
    enrolling.lastBatch = new Set(batch.classes);
    for (let i = 0; i < settled.length; i += SNAPSHOT_CHUNK) {
      const chunk = settled.slice(i, i + SNAPSHOT_CHUNK);
      await this.dataSource.transaction(async (tx) => {
        const ids = await this.roster.takeOwed(tx, 'class', { ids: chunk });
        await this.enqueueSnapshots(tx, 'class', ids);
      });
      for (const id of chunk) enrolling.published.add(id);
    }
  }

  private applyRows(tx: EntityManager, batch: Batch): Promise<void> {
    switch (batch.file) {
      case 'orgs.csv':
        return this.structure.orgs(tx, batch);
      case 'academicSessions.csv':
        return this.structure.academicSessions(tx, batch);
      case 'courses.csv':
        return this.structure.courses(tx, batch);
      case 'classes.csv':
        return this.structure.classes(tx, batch);
      case 'users.csv':
        return this.people.apply(tx, batch);
      case 'roles.csv':
        return this.membership.roles(tx, batch);
      case 'enrollments.csv':
        return this.membership.enrollments(tx, batch);
    }
  }

  /** The batch's events and owed snapshots, its people to check, its errors and progress, in its transaction. */
  private async afterRows(tx: EntityManager, batch: Batch): Promise<void> {
    const { importId } = batch.run;
    await this.publish(tx, batch);
    await this.imports.stage(
      tx,
      importId,
      ROLE_CHECK_FILE,
      [...batch.roleCheck].map((id) => ({ sourcedId: id, line: 0, skipped: false })),
    );
    await this.imports.appendErrors(tx, importId, batch.run.listedErrors + 1, batch.errors);
    await this.imports.progress(tx, importId, batch.countsAfter());
  }

  /** What waits for the commit: the new token versions in the session state, then the approvals. */
  private async afterCommit(batch: Batch): Promise<void> {
    for (const { userId, tokenVersion } of batch.versions)
      await this.sessions.setVersion(userId, tokenVersion);
    for (const { userId, approved } of batch.approvals) await this.setApproval(batch.run, userId, approved);
  }

  /**
   * The administrator's own suspend (or approval): the token version bump, identity.user.updated and the audit
   * record, as the uploader. Their own account is never suspended by their import (the same rule as by hand):
   * that is listed as an error.
   */
  private async setApproval(run: ImportRun, userId: string, approved: boolean): Promise<boolean> {
    const actor = { id: run.actor.id, name: run.actor.name } as AuthUser;
    try {
      await this.usersService.setApproval(actor, userId, approved, run.actor.ip);
      return true;
    } catch (error) {
      this.logger.warn(
        { err: error, userId, importId: run.importId },
        'roster import could not change approval',
      );
      await this.dataSource.transaction(async (tx) => {
        const batch = new Batch(run, 'users.csv', []);
        batch.error({ line: 0, row: {} }, 'enabledUser', `account ${userId}: ${(error as Error).message}`);
        await this.imports.appendErrors(tx, run.importId, run.listedErrors + 1, batch.errors);
        await this.imports.progress(tx, run.importId, batch.countsAfter());
        batch.commit();
      });
      return false;
    }
  }

  /** A bulk file's absent rows end: inactive rows (their snapshots published), suspended accounts. */
  async applyAbsent(run: ImportRun, file: RosterDataFile): Promise<void> {
    await this.imports.analyzeStaged();
    if (file === 'users.csv') return this.suspendAbsent(run);
    const absent = ABSENT[file];
    if (!absent) return;
    await this.dataSource.transaction(async (tx) => {
      const batch = new Batch(run, file, []);
      const rows = await this.roster.deactivateAbsent(tx, absent.table, run.importId, file, absent.extra);
      batch.counts.deactivated = rows.length;
      for (const row of rows) {
        if (absent.table === 'schools') batch.schools.add(row.id);
        if (absent.table === 'classes') batch.classes.add(row.id);
        if (absent.table === 'enrollments') batch.classes.add(row.class_id as string);
        if (row.user_id) batch.roleCheck.add(row.user_id as string);
        if (absent.table === 'user_roles' && row.role === 'administrator')
          batch.schools.add(row.school_id as string);
      }
      await this.afterRows(tx, batch);
      batch.commit();
    });
  }

  private async suspendAbsent(run: ImportRun): Promise<void> {
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const ids = await this.rostered.absentApproved(run.importId, 'users.csv', after, ROSTER_BATCH_ROWS);
      if (ids.length === 0) break;
      for (const id of ids) {
        if (await this.setApproval(run, id, false)) run.counts.deactivated++;
      }
      after = ids[ids.length - 1];
      await this.imports.progress(this.dataSource.manager, run.importId, run.counts);
    }
    await this.rostered.forgetAbsent(run.importId, 'users.csv');
  }

  /**
   * Every person whose roles or enrolments changed (or whose row was read) gets the account role the roster
   * implies: teacher when they teach or administer anywhere, student otherwise. A change bumps the token version
   * and publishes identity.user.updated, as a role change by hand does.
   */
  async applyRoles(run: ImportRun): Promise<void> {
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const changes = await this.rostered.roleMismatches(run.importId, after, ROSTER_BATCH_ROWS);
      if (changes.length === 0) return;
      const changed = await this.dataSource.transaction(async (tx) => {
        const users = await this.rostered.setRoles(tx, changes);
        await this.roster.enqueueMany(
          tx,
          users.map((u) =>
            this.outbox.eventValues(Subjects.identityUserUpdated, toUserChangedEvent(u, ['role'])),
          ),
        );
        return users;
      });
      await this.sessions.warm(Object.fromEntries(changed.map((u) => [u.id, u.tokenVersion])));
      after = changes[changes.length - 1].id;
    }
  }

  /**
   * The batch's events, and the classes and schools it changed noted as owed a snapshot (published once each by
   * publishOwed when the import's files are applied), all in the batch's transaction.
   */
  private async publish(tx: EntityManager, batch: Batch): Promise<void> {
    await this.roster.oweSnapshots(tx, 'school', [...batch.schools]);
    await this.roster.oweSnapshots(tx, 'class', [...batch.classes]);
    await this.roster.enqueueMany(
      tx,
      batch.events.map(([subject, data]) => this.outbox.eventValues(subject, data)),
    );
  }

  /**
   * Publishes every owed snapshot, schools first, each at a new version: SNAPSHOT_CHUNK at a time, each chunk one
   * transaction that takes the ids off the owed list and enqueues their events. Answers how many it published.
   */
  async publishOwed(): Promise<number> {
    let published = 0;
    for (const kind of ['school', 'class'] as const) {
      for (;;) {
        const count = await this.dataSource.transaction(async (tx) => {
          const ids = await this.roster.takeOwed(tx, kind, { limit: SNAPSHOT_CHUNK });
          await this.enqueueSnapshots(tx, kind, ids);
          return ids.length;
        });
        published += count;
        if (count < SNAPSHOT_CHUNK) break;
      }
    }
    return published;
  }

  /** The snapshots of `ids`, each at a new version, enqueued in `tx`. */
  private async enqueueSnapshots(tx: EntityManager, kind: SnapshotKind, ids: string[]): Promise<void> {
    const events =
      kind === 'school'
        ? (await this.roster.schoolSnapshots(tx, ids)).map(
            (e) => [Subjects.identityRosterSchoolChanged, e] as const,
          )
        : (await this.roster.classSnapshots(tx, ids)).map(
            (e) => [Subjects.identityRosterClassChanged, e] as const,
          );
    await this.roster.enqueueMany(
      tx,
      events.map(([subject, data]) => this.outbox.eventValues(subject, data)),
    );
  }
}

import { RosterMessages } from '@district/contracts';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Batch } from './roster-batch';
import { count, decide, referenceError } from './roster-checks';
import { parseBoolean, parseStatus, rowHash, type RosterLine } from './roster-files';
import { RosterImportsRepository } from './roster-imports.repository';
import { RosterUsersRepository } from './roster-users.repository';
import { RosterRepository, type StoredRow } from './roster.repository';

/** A class's largest roster: its snapshot event must stay far below NATS's 1 MB message (ADR 0042). */
export const CLASS_MEMBERS_MAX = 5_000;

/** OneRoster 1.2's role vocabulary (roles.csv); `administrator` at a school makes a school administrator. */
const ROLES = new Set([
  'administrator',
  'aide',
  'counselor',
  'districtadministrator',
  'guardian',
  'parent',
  'principal',
  'proctor',
  'relative',
  'siteadministrator',
  'student',
  'systemadministrator',
  'teacher',
]);

/**
 * roles.csv and enrollments.csv: who holds which role at a school, and who teaches or studies in which class.
 * A changed enrolment notes its classes (old and new) for their snapshots, a changed administrator role its schools,
 * and both the person, whose account role (teacher or student) is checked once the files are applied.
 */
@Injectable()
export class RosterMembershipApplier {
  constructor(
    @Inject(RosterRepository) private readonly roster: RosterRepository,
    @Inject(RosterImportsRepository) private readonly imports: RosterImportsRepository,
    @Inject(RosterUsersRepository) private readonly users: RosterUsersRepository,
  ) {}

  async roles(tx: EntityManager, batch: Batch): Promise<void> {
    const lines = batch.valid();
    const users = await this.users.ids(
      tx,
      lines.map((l) => l.row.userSourcedId),
    );
    const schools = await this.roster.lookup(
      tx,
      'schools',
      lines.map((l) => l.row.orgSourcedId),
    );
    const stored = await this.roster.stored(
      tx,
      'user_roles',
      lines.map((l) => l.row.sourcedId),
      ['user_id', 'school_id', 'role'],
    );
    const writes = [];
    for (const line of lines) {
      const { row } = line;
      const role = row.role.toLowerCase();
      const roleType = row.roleType.toLowerCase();
      if (!ROLES.has(role)) {
        batch.error(line, 'role', `bad role "${row.role}"`);
        continue;
      }
      if (roleType !== 'primary' && roleType !== 'secondary') {
        batch.error(line, 'roleType', `bad roleType "${row.roleType}": it must be primary or secondary`);
        continue;
      }
      const userId = await this.user(tx, batch, line, users);
      if (!userId) continue;
      const school = schools.get(row.orgSourcedId);
      if (!school) {
        if (await this.imports.staged(tx, batch.run.importId, 'orgs.csv', row.orgSourcedId))
          batch.error(
            line,
            'orgSourcedId',
            `org ${row.orgSourcedId} is not a school: roles are held at a school`,
          );
        else
          await referenceError(tx, this.imports, batch, line, 'orgSourcedId', {
            file: 'orgs.csv',
            label: 'org',
            sourcedId: row.orgSourcedId,
          });
        continue;
      }
      const active = parseStatus(row.status) === 'active';
      const values = [userId, school.id, role, roleType, row.beginDate || null, row.endDate || null];
      const hash = rowHash([...values, active]);
      const before = stored.get(row.sourcedId);
      const decision = decide(before, hash, active);
      if (!decision) continue;
      count(batch, decision);
      writes.push({ sourcedId: row.sourcedId, active, hash, values });
      batch.roleCheck.add(userId);
      if (before) batch.roleCheck.add(before.user_id as string);
      if (role === 'administrator') batch.schools.add(school.id);
      if (before?.role === 'administrator') batch.schools.add(before.school_id as string);
    }
    await this.roster.upsert(
      tx,
      'user_roles',
      [
        { name: 'user_id', type: 'uuid' },
        { name: 'school_id', type: 'uuid' },
        { name: 'role', type: 'text' },
        { name: 'role_type', type: 'text' },
        { name: 'begin_date', type: 'date' },
        { name: 'end_date', type: 'date' },
      ],
      writes,
    );
  }

  async enrollments(tx: EntityManager, batch: Batch): Promise<void> {
    const lines = batch.valid();
    const users = await this.users.ids(
      tx,
      lines.map((l) => l.row.userSourcedId),
    );
    const classes = await this.roster.lookup(
      tx,
      'classes',
      lines.map((l) => l.row.classSourcedId),
      ['school_id'],
    );
    const schools = await this.roster.lookup(
      tx,
      'schools',
      lines.map((l) => l.row.schoolSourcedId),
    );
    const stored = await this.roster.stored(
      tx,
      'enrollments',
      lines.map((l) => l.row.sourcedId),
      ['class_id', 'user_id', 'role'],
    );
    const members = await this.roster.memberCounts(
      tx,
      [...classes.values()].map((c) => c.id),
    );
    const writes = [];
    for (const line of lines) {
      const { row } = line;
      const role = row.role.toLowerCase();
      if (role === 'administrator' || role === 'proctor') {
        batch.error(line, 'role', `role ${role} is not supported in a class: only teacher and student are`);
        continue;
      }
      if (role !== 'teacher' && role !== 'student') {
        batch.error(line, 'role', `bad role "${row.role}": it must be teacher or student`);
        continue;
      }
      const primary = row.primary ? parseBoolean(row.primary) : false;
      if (primary === null) {
        batch.error(line, 'primary', `bad primary "${row.primary}": it must be true or false`);
        continue;
      }
      const klass = classes.get(row.classSourcedId);
      if (!klass) {
        await referenceError(tx, this.imports, batch, line, 'classSourcedId', {
          file: 'classes.csv',
          label: 'class',
          sourcedId: row.classSourcedId,
        });
        continue;
      }
      const school = schools.get(row.schoolSourcedId);
      if (!school) {
        await referenceError(tx, this.imports, batch, line, 'schoolSourcedId', {
          file: 'orgs.csv',
          label: 'school',
          sourcedId: row.schoolSourcedId,
        });
        continue;
      }
      if (school.id !== klass.school_id) {
        batch.error(
          line,
          'schoolSourcedId',
          RosterMessages.enrollmentOtherSchool(row.schoolSourcedId, row.classSourcedId),
        );
        continue;
      }
      const userId = await this.user(tx, batch, line, users);
      if (!userId) continue;
      const active = parseStatus(row.status) === 'active';
      const values = [klass.id, userId, role, primary, row.beginDate || null, row.endDate || null];
      const hash = rowHash([...values, active]);
      const before = stored.get(row.sourcedId);
      const decision = decide(before, hash, active);
      if (!decision) continue;
      if (active && !this.seat(members, klass, before)) {
        batch.error(
          line,
          'classSourcedId',
          `class ${row.classSourcedId} is full: a class has at most ${CLASS_MEMBERS_MAX} members`,
        );
        continue;
      }
      if (before?.active)
        members.set(before.class_id as string, (members.get(before.class_id as string) ?? 1) - 1);
      count(batch, decision);
      writes.push({ sourcedId: row.sourcedId, active, hash, values });
      batch.classes.add(klass.id);
      batch.roleCheck.add(userId);
      if (before) {
        batch.classes.add(before.class_id as string);
        batch.roleCheck.add(before.user_id as string);
      }
    }
    await this.roster.upsert(
      tx,
      'enrollments',
      [
        { name: 'class_id', type: 'uuid' },
        { name: 'user_id', type: 'uuid' },
        { name: 'role', type: 'text' },
        { name: 'is_primary', type: 'boolean' },
        { name: 'begin_date', type: 'date' },
        { name: 'end_date', type: 'date' },
      ],
      writes,
    );
  }

  /** Takes a seat in `klass` for an enrolment that becomes active there; false when the class is full. */
  private seat(members: Map<string, number>, klass: StoredRow, before: StoredRow | undefined): boolean {
    if (before?.active && before.class_id === klass.id) {
      members.set(klass.id, (members.get(klass.id) ?? 0) + 1);
      return true;
    }
    const taken = members.get(klass.id) ?? 0;
    if (taken >= CLASS_MEMBERS_MAX) return false;
    members.set(klass.id, taken + 1);
    return true;
  }

  /** The person a row names, or the row's error (unknown, or skipped earlier in this import). */
  private async user(
    tx: EntityManager,
    batch: Batch,
    line: RosterLine,
    users: Map<string, string>,
  ): Promise<string | null> {
    const id = users.get(line.row.userSourcedId);
    if (id) return id;
    await referenceError(tx, this.imports, batch, line, 'userSourcedId', {
      file: 'users.csv',
      label: 'user',
      sourcedId: line.row.userSourcedId,
    });
    return null;
  }
}

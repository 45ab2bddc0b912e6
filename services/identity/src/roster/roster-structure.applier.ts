import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Batch } from './roster-batch';
import { count, decide, referenceError } from './roster-checks';
import { parseList, parseStatus, rowHash } from './roster-files';
import { RosterImportsRepository } from './roster-imports.repository';
import { RosterRepository } from './roster.repository';

const text = (value: string, max: number): string | null => (value ? value.slice(0, max) : null);

/**
 * The district's structure from orgs.csv, academicSessions.csv, courses.csv and classes.csv: each batch's rows
 * compared with the stored ones by hash and written in one upsert per file; changed schools and classes are noted
 * on the batch for their snapshot events.
 */
@Injectable()
export class RosterStructureApplier {
  constructor(
    @Inject(RosterRepository) private readonly roster: RosterRepository,
    @Inject(RosterImportsRepository) private readonly imports: RosterImportsRepository,
  ) {}

  /** orgs.csv: a `school` row makes a school; the district and other org types are read and otherwise ignored. */
  async orgs(tx: EntityManager, batch: Batch): Promise<void> {
    const schools = batch.valid().filter((l) => l.row.type.toLowerCase() === 'school');
    const stored = await this.roster.stored(
      tx,
      'schools',
      schools.map((l) => l.row.sourcedId),
    );
    const writes = [];
    for (const { row } of schools) {
      const active = parseStatus(row.status) === 'active';
      const values = [row.name.slice(0, 200), text(row.identifier, 100)];
      const hash = rowHash([...values, active]);
      const decision = decide(stored.get(row.sourcedId), hash, active);
      if (!decision) continue;
      count(batch, decision);
      writes.push({ sourcedId: row.sourcedId, active, hash, values });
    }
    const ids = await this.roster.upsert(
      tx,
      'schools',
      [
        { name: 'name', type: 'text' },
        { name: 'identifier', type: 'text' },
      ],
      writes,
    );
    for (const id of ids.values()) batch.schools.add(id);
  }

  async academicSessions(tx: EntityManager, batch: Batch): Promise<void> {
    const lines = batch.valid();
    const stored = await this.roster.stored(
      tx,
      'academic_sessions',
      lines.map((l) => l.row.sourcedId),
    );
    const writes = [];
    for (const { row } of lines) {
      const active = parseStatus(row.status) === 'active';
      const values = [
        row.title.slice(0, 200),
        row.type.slice(0, 20),
        row.startDate,
        row.endDate,
        row.schoolYear.slice(0, 10),
      ];
      const hash = rowHash([...values, active]);
      const decision = decide(stored.get(row.sourcedId), hash, active);
      if (!decision) continue;
      count(batch, decision);
      writes.push({ sourcedId: row.sourcedId, active, hash, values });
    }
    await this.roster.upsert(
      tx,
      'academic_sessions',
      [
        { name: 'title', type: 'text' },
        { name: 'type', type: 'text' },
        { name: 'start_date', type: 'date' },
        { name: 'end_date', type: 'date' },
        { name: 'school_year', type: 'text' },
      ],
      writes,
    );
  }

  /** courses.csv: a course of a school, or of the district (its org read in this import's orgs.csv). */
  async courses(tx: EntityManager, batch: Batch): Promise<void> {
    const schools = await this.roster.lookup(
      tx,
      'schools',
      batch.valid().map((l) => l.row.orgSourcedId),
    );
    const writes = [];
    const stored = await this.roster.stored(
      tx,
      'courses',
      batch.valid().map((l) => l.row.sourcedId),
    );
    for (const line of batch.valid()) {
      const { row } = line;
      const school = schools.get(row.orgSourcedId);
      if (!school && !(await this.imports.staged(tx, batch.run.importId, 'orgs.csv', row.orgSourcedId))) {
        await referenceError(tx, this.imports, batch, line, 'orgSourcedId', {
          file: 'orgs.csv',
          label: 'org',
          sourcedId: row.orgSourcedId,
        });
        continue;
      }
      const active = parseStatus(row.status) === 'active';
      const values = [row.title.slice(0, 200), text(row.courseCode, 100), school?.id ?? null];
      const hash = rowHash([...values, active]);
      const decision = decide(stored.get(row.sourcedId), hash, active);
      if (!decision) continue;
      count(batch, decision);
      writes.push({ sourcedId: row.sourcedId, active, hash, values });
    }
    await this.roster.upsert(
      tx,
      'courses',
      [
        { name: 'title', type: 'text' },
        { name: 'course_code', type: 'text' },
        { name: 'school_id', type: 'uuid' },
      ],
      writes,
    );
  }

  /** classes.csv: its school, course and terms must resolve; the terms' titles become the class's term. */
  async classes(tx: EntityManager, batch: Batch): Promise<void> {
    const lines = batch.valid();
    const schools = await this.roster.lookup(
      tx,
      'schools',
      lines.map((l) => l.row.schoolSourcedId),
    );
    const courses = await this.roster.lookup(
      tx,
      'courses',
      lines.map((l) => l.row.courseSourcedId),
      ['course_code'],
    );
    const terms = await this.roster.sessionTitles(
      tx,
      lines.flatMap((l) => parseList(l.row.termSourcedIds)),
    );
    const stored = await this.roster.stored(
      tx,
      'classes',
      lines.map((l) => l.row.sourcedId),
    );
    const writes = [];
    for (const line of lines) {
      const { row } = line;
      const school = schools.get(row.schoolSourcedId);
      if (!school) {
        await referenceError(tx, this.imports, batch, line, 'schoolSourcedId', {
          file: 'orgs.csv',
          label: 'school',
          sourcedId: row.schoolSourcedId,
        });
        continue;
      }
      const course = courses.get(row.courseSourcedId);
      if (!course) {
        await referenceError(tx, this.imports, batch, line, 'courseSourcedId', {
          file: 'courses.csv',
          label: 'course',
          sourcedId: row.courseSourcedId,
        });
        continue;
      }
      const termIds = parseList(row.termSourcedIds);
      const unknownTerm = termIds.find((t) => !terms.has(t));
      if (unknownTerm !== undefined || termIds.length === 0) {
        await referenceError(tx, this.imports, batch, line, 'termSourcedIds', {
          file: 'academicSessions.csv',
          label: 'term',
          sourcedId: unknownTerm ?? '',
        });
        continue;
      }
      const active = parseStatus(row.status) === 'active';
      const values = [
        row.title.slice(0, 200),
        text(row.classCode, 100),
        school.id,
        course.id,
        termIds
          .map((t) => terms.get(t))
          .join(', ')
          .slice(0, 400),
        (course.course_code as string | null) ?? null,
      ];
      const hash = rowHash([...values, active]);
      const decision = decide(stored.get(row.sourcedId), hash, active);
      if (!decision) continue;
      count(batch, decision);
      writes.push({ sourcedId: row.sourcedId, active, hash, values });
    }
    const ids = await this.roster.upsert(
      tx,
      'classes',
      [
        { name: 'title', type: 'text' },
        { name: 'class_code', type: 'text' },
        { name: 'school_id', type: 'uuid' },
        { name: 'course_id', type: 'uuid' },
        { name: 'term', type: 'text' },
        { name: 'course_code', type: 'text' },
      ],
      writes,
    );
    for (const id of ids.values()) batch.classes.add(id);
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { ClassSummary, School } from '@district/contracts';

/** Where the caller stands: a district administrator sees and manages everything. */
export interface Viewer {
  id: string;
  isAdmin: boolean;
}

/**
 * Where a class list's page starts: after this class, in (school name, school id, title, id) order, read from its
 * row. Only the id travels in the cursor, so a cursor stays short whatever the names' length.
 */
export type ClassKey = string;

/** Which classes a list holds: the caller's own, or one school's. Only active classes either way. */
export type ClassScope = { kind: 'own'; userId: string } | { kind: 'school'; schoolId: string };

/** The caller's ties to one class, from the stored rows. */
export interface ClassAccess {
  teaches: boolean;
  enrolled: boolean;
  administers: boolean;
}

export interface ClassMemberRow {
  id: string;
  name: string;
  email: string;
  role: 'teacher' | 'student';
}

/** The active school administrators' schools of a person (subquery on user_roles, parameter $1). */
const ADMINISTERED = `SELECT r.school_id FROM user_roles r WHERE r.user_id = $1 AND r.active AND r.role = 'administrator'`;

const SUMMARY_COLUMNS = `c.id, c.title, c.school_id AS "schoolId", s.name AS "schoolName", c.term,
  c.course_code AS "courseCode", c.active`;
/** Counted on the page's rows only (outer query), from enrollments_class_idx. */
const MEMBER_COUNTS = `
  (SELECT count(*)::int FROM enrollments e WHERE e.class_id = p.id AND e.active AND e.role = 'teacher')
    AS "teacherCount",
  (SELECT count(*)::int FROM enrollments e WHERE e.class_id = p.id AND e.active AND e.role = 'student')
    AS "studentCount"`;

/** The district's schools and classes as people read them (ADR 0042); imports write them (roster/). */
@Injectable()
export class DistrictRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * A district administrator's: every school. Anyone else's: the schools they administer (inactive ones too) and
   * the active schools where they have an active enrolment in an active class. Sorted by name.
   */
  schoolsFor(viewer: Viewer): Promise<School[]> {
    return this.db.query(
      `WITH administered AS (${ADMINISTERED})
       SELECT s.id, s.name, s.identifier, s.active,
              (SELECT count(*)::int FROM classes c WHERE c.school_id = s.id AND c.active) AS "classCount",
              ($2::boolean OR s.id IN (SELECT school_id FROM administered)) AS "canManage"
         FROM schools s
        WHERE $2::boolean
           OR s.id IN (SELECT school_id FROM administered)
           OR (s.active AND s.id IN (
                SELECT c.school_id FROM enrollments e JOIN classes c ON c.id = e.class_id
                 WHERE e.user_id = $1 AND e.active AND c.active))
        ORDER BY s.name, s.id`,
      [viewer.id, viewer.isAdmin],
    );
  }

  async schoolExists(schoolId: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(`SELECT 1 FROM schools WHERE id = $1`, [schoolId]);
    return rows.length > 0;
  }

  async administers(userId: string, schoolId: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(`${ADMINISTERED} AND r.school_id = $2 LIMIT 1`, [
      userId,
      schoolId,
    ]);
    return rows.length > 0;
  }

  /** One page of active classes in (school name, school id, title, id) order after `after`, and the count of all. */
  async classPage(
    scope: ClassScope,
    after: ClassKey | undefined,
    limit: number,
  ): Promise<{ classes: ClassSummary[]; total: number; next: ClassKey | null }> {
    const params: unknown[] = [scope.kind === 'own' ? scope.userId : scope.schoolId];
    const where =
      scope.kind === 'own'
        ? `c.active AND c.id IN (SELECT e.class_id FROM enrollments e WHERE e.user_id = $1 AND e.active)`
        : `c.active AND c.school_id = $1`;
    let keyset = '';
    if (after) {
      params.push(after);
      keyset = `AND (s.name, s.id, c.title, c.id) > (
        SELECT s2.name, s2.id, c2.title, c2.id FROM classes c2 JOIN schools s2 ON s2.id = c2.school_id
         WHERE c2.id = $2::uuid)`;
    }
    params.push(limit + 1);
    const [rows, counted] = await Promise.all([
      this.db.query(
        `SELECT p.*, ${MEMBER_COUNTS}
           FROM (SELECT ${SUMMARY_COLUMNS} FROM classes c JOIN schools s ON s.id = c.school_id
                  WHERE ${where} ${keyset}
                  ORDER BY s.name, s.id, c.title, c.id
                  LIMIT $${params.length}) p
          ORDER BY p."schoolName", p."schoolId", p.title, p.id`,
        params,
      ) as Promise<ClassSummary[]>,
      this.db.query(`SELECT count(*)::int AS total FROM classes c WHERE ${where}`, [params[0]]) as Promise<
        { total: number }[]
      >,
    ]);
    const classes = rows.slice(0, limit);
    const last = classes[classes.length - 1];
    return {
      classes,
      total: counted[0]?.total ?? 0,
      next: rows.length > limit && last ? last.id : null,
    };
  }

  /** The class (active or not) with its counts; null when there is none. */
  async classById(classId: string): Promise<ClassSummary | null> {
    const rows: ClassSummary[] = await this.db.query(
      `SELECT p.*, ${MEMBER_COUNTS}
         FROM (SELECT ${SUMMARY_COLUMNS} FROM classes c JOIN schools s ON s.id = c.school_id
                WHERE c.id = $1) p`,
      [classId],
    );
    return rows[0] ?? null;
  }

  async accessTo(classId: string, userId: string): Promise<ClassAccess> {
    const rows: ClassAccess[] = await this.db.query(
      `SELECT
         EXISTS (SELECT 1 FROM enrollments e WHERE e.class_id = $1 AND e.user_id = $2 AND e.active
                    AND e.role = 'teacher') AS teaches,
         EXISTS (SELECT 1 FROM enrollments e WHERE e.class_id = $1 AND e.user_id = $2 AND e.active) AS enrolled,
         EXISTS (SELECT 1 FROM user_roles r JOIN classes c ON c.school_id = r.school_id
                  WHERE c.id = $1 AND r.user_id = $2 AND r.active AND r.role = 'administrator') AS administers`,
      [classId, userId],
    );
    return rows[0] ?? { teaches: false, enrolled: false, administers: false };
  }

  /** The class's active teachers and students, each once per role, by name. */
  members(classId: string): Promise<ClassMemberRow[]> {
    return this.db.query(
      `SELECT DISTINCT u.id, u.name, u.email, e.role, lower(u.name) AS sort_name
         FROM enrollments e JOIN users u ON u.id = e.user_id
        WHERE e.class_id = $1 AND e.active
        ORDER BY sort_name, u.id`,
      [classId],
    );
  }
}

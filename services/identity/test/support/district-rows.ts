import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { SessionStateStore } from '@district/nest-common';

/**
 * Roster rows written straight into identity's tables (migration 1733800000000), so the district's reads are
 * tested without the OneRoster import. Every row gets a fresh sourced_id, as an import would give it.
 */
export class DistrictRows {
  /** With `sessions`, written accounts get their token version in the shared session state, as an import's do. */
  constructor(
    private readonly db: DataSource,
    private readonly sessions?: SessionStateStore,
  ) {}

  async school(name: string, options: { active?: boolean; identifier?: string } = {}): Promise<string> {
    const id = randomUUID();
    await this.db.query(
      `INSERT INTO schools (id, sourced_id, name, identifier, active) VALUES ($1, $2, $3, $4, $5)`,
      [id, `org-${id}`, name, options.identifier ?? null, options.active ?? true],
    );
    return id;
  }

  async class(
    schoolId: string,
    title: string,
    options: { active?: boolean; term?: string; courseCode?: string } = {},
  ): Promise<string> {
    const id = randomUUID();
    await this.db.query(
      `INSERT INTO classes (id, sourced_id, title, school_id, term, course_code, active)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        id,
        `class-${id}`,
        title,
        schoolId,
        options.term ?? null,
        options.courseCode ?? null,
        options.active ?? true,
      ],
    );
    return id;
  }

  async enrol(
    classId: string,
    userId: string,
    role: 'teacher' | 'student',
    options: { active?: boolean } = {},
  ): Promise<void> {
    await this.db.query(
      `INSERT INTO enrollments (sourced_id, class_id, user_id, role, active) VALUES ($1, $2, $3, $4, $5)`,
      [`enr-${randomUUID()}`, classId, userId, role, options.active ?? true],
    );
  }

  /** A role at a school (roles.csv); `administrator` makes a school administrator. */
  async role(
    userId: string,
    schoolId: string,
    role = 'administrator',
    options: { active?: boolean } = {},
  ): Promise<void> {
    await this.db.query(
      `INSERT INTO user_roles (sourced_id, user_id, school_id, role, role_type, active)
       VALUES ($1, $2, $3, $4, 'primary', $5)`,
      [`role-${randomUUID()}`, userId, schoolId, role, options.active ?? true],
    );
  }

  /** Marks an account as rostered (its SIS id), approved as an import leaves it. */
  async rostered(userId: string): Promise<void> {
    await this.db.query(`UPDATE users SET sourced_id = $2, approved = true WHERE id = $1`, [
      userId,
      `user-${randomUUID()}`,
    ]);
  }

  /**
   * Approved accounts without a password, `createdAt` as given (paging and search tests), signing in only through
   * the OpenID provider, and only when the session state knows them (`sessions`). Their ids in the order given.
   */
  async users(
    people: readonly { name: string; username: string; email: string; createdAt?: string; role?: string }[],
  ): Promise<string[]> {
    const ids: string[] = [];
    for (const person of people) {
      const id = randomUUID();
      await this.db.query(
        `INSERT INTO users (id, name, username, email, role, approved, created_at)
         VALUES ($1, $2, $3, lower($4), $5, true, COALESCE($6::timestamptz, now()))`,
        [id, person.name, person.username, person.email, person.role ?? 'student', person.createdAt ?? null],
      );
      await this.sessions?.setVersion(id, 1);
      ids.push(id);
    }
    return ids;
  }
}

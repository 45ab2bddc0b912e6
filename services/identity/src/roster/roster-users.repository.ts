import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Role } from '@district/contracts';
import type { UserEntity } from '../users/user.entity';
import { USER_COLUMNS, toUserEntity, type UserRow } from '../users/user-row';

/** A rostered account as an import compares it. */
export interface RosteredUser {
  id: string;
  sourced_id: string;
  row_hash: string | null;
  approved: boolean;
}

/** A new rostered account, its password already hashed. */
export interface NewRosteredUser {
  id: string;
  name: string;
  username: string;
  email: string;
  passwordHash: string | null;
  approved: boolean;
  sourcedId: string;
  hash: string;
}

/** The staging file of the people whose account role an import must check once its roles are read. */
export const ROLE_CHECK_FILE = 'role-check';

/**
 * The roster's SQL on users (sourced_id, row_hash, who holds an email or a username). The accounts themselves are
 * written through UsersRepository, as every other change to a user is.
 */
@Injectable()
export class RosterUsersRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async bySourcedId(tx: EntityManager, sourcedIds: readonly string[]): Promise<Map<string, RosteredUser>> {
    if (sourcedIds.length === 0) return new Map();
    const rows = (await tx.query(
      `SELECT id, sourced_id, row_hash, approved FROM users WHERE sourced_id = ANY($1) FOR UPDATE`,
      [[...new Set(sourcedIds)]],
    )) as RosteredUser[];
    return new Map(rows.map((r) => [r.sourced_id, r]));
  }

  /** Accounts holding any of these emails (lower case) or usernames, whoever they are. */
  async holders(
    tx: EntityManager,
    emails: readonly string[],
    usernames: readonly string[],
  ): Promise<{ emails: Map<string, string>; usernames: Map<string, string> }> {
    const rows = (await tx.query(
      `SELECT id, lower(email) AS email, lower(username) AS username FROM users
        WHERE lower(email) = ANY($1) OR lower(username) = ANY($2)`,
      [emails, usernames],
    )) as { id: string; email: string; username: string }[];
    return {
      emails: new Map(rows.map((r) => [r.email, r.id])),
      usernames: new Map(rows.map((r) => [r.username, r.id])),
    };
  }

  /**
   * Inserts a batch's new accounts (students, never administrators) in one statement; an account whose email,
   * username or sourcedId another took meanwhile is not inserted (absent from the answer).
   */
  async insertMany(tx: EntityManager, people: readonly NewRosteredUser[]): Promise<UserEntity[]> {
    if (people.length === 0) return [];
    const rows = (await tx.query(
      `INSERT INTO users (id, name, username, email, password_hash, approved, sourced_id, row_hash, role, is_admin,
                          token_version, sessions_valid_from_version)
       SELECT i, n, u, e, p, a, s, h, 'student', false, 1, 0
         FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::boolean[], $7::text[], $8::text[])
           AS x(i, n, u, e, p, a, s, h)
       ON CONFLICT DO NOTHING RETURNING ${USER_COLUMNS}`,
      [
        people.map((p) => p.id),
        people.map((p) => p.name),
        people.map((p) => p.username),
        people.map((p) => p.email),
        people.map((p) => p.passwordHash),
        people.map((p) => p.approved),
        people.map((p) => p.sourcedId),
        people.map((p) => p.hash),
      ],
    )) as UserRow[];
    return rows.map(toUserEntity);
  }

  /**
   * Gives each person their roster role, bumping the token version (live sessions see the change at once, as a
   * role change by hand does); answers the changed accounts.
   */
  async setRoles(tx: EntityManager, changes: readonly { id: string; role: Role }[]): Promise<UserEntity[]> {
    if (changes.length === 0) return [];
    const [rows] = (await tx.query(
      `UPDATE users u SET role = c.role, token_version = u.token_version + 1, updated_at = now()
         FROM unnest($1::uuid[], $2::text[]) AS c(id, role)
        WHERE u.id = c.id AND u.role <> c.role AND NOT u.is_admin
        RETURNING ${USER_COLUMNS.replace(/(\w+)/g, 'u.$1')}`,
      [changes.map((c) => c.id), changes.map((c) => c.role)],
    )) as [UserRow[], number];
    return rows.map(toUserEntity);
  }

  async setRosterState(tx: EntityManager, id: string, sourcedId: string, hash: string | null): Promise<void> {
    await tx.query(`UPDATE users SET sourced_id = $2, row_hash = $3 WHERE id = $1`, [id, sourcedId, hash]);
  }

  async setHash(tx: EntityManager, id: string, hash: string | null): Promise<void> {
    await tx.query(`UPDATE users SET row_hash = $2 WHERE id = $1`, [id, hash]);
  }

  /** Approved rostered accounts a bulk users.csv did not mention, a page at a time (the caller suspends them). */
  async absentApproved(importId: string, file: string, afterId: string, limit: number): Promise<string[]> {
    const rows = (await this.dataSource.query(
      `SELECT u.id FROM users u
        WHERE u.sourced_id IS NOT NULL AND u.approved AND u.id > $4
          AND NOT EXISTS (SELECT 1 FROM roster_import_rows r
                           WHERE r.import_id = $1 AND r.file = $2 AND r.sourced_id = u.sourced_id)
        ORDER BY u.id LIMIT $3`,
      [importId, file, limit, afterId],
    )) as { id: string }[];
    return rows.map((r) => r.id);
  }

  /** Forgets the hash of rostered accounts a bulk users.csv did not mention (so a returning row applies again). */
  async forgetAbsent(importId: string, file: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE users u SET row_hash = NULL
        WHERE u.sourced_id IS NOT NULL AND u.row_hash IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM roster_import_rows r
                           WHERE r.import_id = $1 AND r.file = $2 AND r.sourced_id = u.sourced_id)`,
      [importId, file],
    );
  }

  /**
   * Of the people staged for a role check, those whose account role is not the roster's: `teacher` when an active
   * role is teacher or administrator, or an active enrolment teaches; `student` otherwise. Administrators
   * (isAdmin) keep whatever role they have.
   */
  async roleMismatches(
    importId: string,
    afterId: string,
    limit: number,
  ): Promise<{ id: string; role: Role }[]> {
    return (await this.dataSource.query(
      `SELECT id, role FROM (
         SELECT u.id, u.role AS current,
                CASE WHEN EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id AND r.active
                                    AND r.role IN ('teacher', 'administrator'))
                       OR EXISTS (SELECT 1 FROM enrollments e WHERE e.user_id = u.id AND e.active
                                    AND e.role = 'teacher')
                     THEN 'teacher' ELSE 'student' END AS role
           -- Compared as text: a cast of the staged ids to uuid could meet another file's ids first.
           FROM roster_import_rows s JOIN users u ON u.id::text = s.sourced_id
          WHERE s.import_id = $1 AND s.file = $2 AND u.id > $3 AND NOT u.is_admin
       ) x WHERE current <> role ORDER BY id LIMIT $4`,
      [importId, ROLE_CHECK_FILE, afterId, limit],
    )) as { id: string; role: Role }[];
  }

  /** Users by sourcedId (any state): what roles and enrolments refer to. */
  async ids(tx: EntityManager, sourcedIds: readonly string[]): Promise<Map<string, string>> {
    if (sourcedIds.length === 0) return new Map();
    const rows = (await tx.query(`SELECT id, sourced_id FROM users WHERE sourced_id = ANY($1)`, [
      [...new Set(sourcedIds)],
    ])) as { id: string; sourced_id: string }[];
    return new Map(rows.map((r) => [r.sourced_id, r.id]));
  }
}

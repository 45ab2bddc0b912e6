import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import type { Role } from '@district/contracts';
import { canonicalUuid } from '@district/nest-common';
import { likeContains } from './page-cursor';
import { UserEntity } from './user.entity';
import { toUserEntity, type UserRow } from './user-row';

/** The unique indexes on email and username (migration 1732320000000): a lost race for either breaks one. */
export const USERS_EMAIL_KEY = 'users_email_key';
export const USERS_USERNAME_KEY = 'users_username_key';

export interface NewUser {
  /** Fixed ids are for the demo accounts; everyone else gets a random one. */
  id?: string;
  name: string;
  username: string;
  email: string;
  /** Plain text, hashed by UsersService; null for accounts that sign in only through the OpenID provider. */
  password: string | null;
  role: Role;
  approved: boolean;
  isAdmin: boolean;
  createdAt?: Date;
}

/** The sort key of a row of GET /api/users (newest first): created_at to the microsecond, then id. */
export interface UsersPageKey {
  createdAt: string;
  id: string;
}

/** GET /api/users's filters (ADR 0042), each already checked and canonical. */
export interface UsersPageFilter {
  /**
   * Ignoring case: three characters or more are matched anywhere in name, username or email (LIKE's `%` and `_`
   * match themselves); one or two (isShortQuery) at the start of a word of the name, of the username or of the email.
   */
  q?: string;
  /** People with an active role, or an active enrolment in an active class, at one of these schools. */
  schoolIds?: readonly string[];
  /** `administrator`: a district administrator, or a school administrator (of `schoolIds` when given). */
  role?: 'student' | 'teacher' | 'administrator';
  /** Only approved accounts (true) or only the others (false). */
  approved?: boolean;
  after?: UsersPageKey;
  limit: number;
}

export interface UsersPage {
  users: UserEntity[];
  /** Every row the filters match, all pages together. */
  total: number;
  /** The last row's key when more rows follow. */
  next: UsersPageKey | null;
}

interface UsersPageRow extends UserRow {
  cursor_at: string;
}

/**
 * A search too short for the trigram index (three characters, counted as PostgreSQL counts them: code points),
 * matched by the starts of words instead (ADR 0042, "User search").
 */
function isShortQuery(q: string): boolean {
  return Array.from(q).length < 3;
}

const VERSION_BATCH = 5000;
/** Rows kept by findAtVersion: the most recently read, oldest dropped first. */
const ROWS_AT_VERSION = 10_000;
/** How long a kept row is used without reading it again (a bound, not what keeps it correct). */
const ROW_AT_VERSION_MS = 60_000;

/** The data access of users. Statements taking `tx` run inside the caller's transaction. */
@Injectable()
export class UsersRepository {
  /** Rows by id, each with when it was read (findAtVersion). */
  private readonly atVersion = new Map<string, { user: UserEntity; readAt: number }>();

  constructor(@InjectRepository(UserEntity) private readonly users: Repository<UserEntity>) {}

  /** A person's links to the sign-in provider (OpenID Connect), for their right-of-access file (ADR 0021). */
  async externalIdentitiesOf(userId: string): Promise<Record<string, unknown>[]> {
    return (await this.users.query(
      `SELECT issuer, subject, created_at AS "createdAt" FROM external_identities WHERE user_id = $1
        ORDER BY created_at, issuer`,
      [userId],
    )) as Record<string, unknown>[];
  }

  list(): Promise<UserEntity[]> {
    return this.users.find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** One page of people in id order after `after` (keyset paging: each page is one indexed range read). */
  page(options: { excludeAdmins: boolean; after?: string; limit: number }): Promise<UserEntity[]> {
    const query = this.users.createQueryBuilder('u').orderBy('u.id', 'ASC').limit(options.limit);
    if (options.after) query.andWhere('u.id > :after', { after: options.after.toLowerCase() });
    if (options.excludeAdmins) query.andWhere('u.isAdmin = false');
    return query.getMany();
  }

  /**
   * One page of GET /api/users, newest first (created_at DESC, id DESC: the keyset of users_newest_idx), and the
   * count of every match. `q` uses the trigram index users_search_trgm_idx, or for one or two characters
   * users_short_search_idx, whose expressions this repeats exactly.
   */
  async searchPage(filter: UsersPageFilter): Promise<UsersPage> {
    const params: unknown[] = [];
    const arg = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    const where: string[] = [];
    // Three characters or more: anywhere (users_search_trgm_idx). Fewer, which a trigram index cannot serve: the start
    // of a word of the name, of the username or of the email (users_short_search_idx, migration 1734000000000).
    if (filter.q && isShortQuery(filter.q))
      where.push(`users_short_search_keys(name, username, email) @> ARRAY[lower(${arg(filter.q)}::text)]`);
    else if (filter.q)
      where.push(
        `lower(name || ' ' || username || ' ' || email) LIKE ${arg(likeContains(filter.q.toLowerCase()))}`,
      );
    const schools = filter.schoolIds ? arg(filter.schoolIds) : null;
    // A school's people are found from its rows (roles; enrolments class by class through enrollments_class_idx,
    // the OFFSET 0 keeping the planner from a scan of every enrolment), then looked up by id: a few thousand rows
    // for a school of 800, where filtering every user by the school would read them all.
    if (schools)
      where.push(`id IN (
        SELECT r.user_id FROM user_roles r WHERE r.active AND r.school_id = ANY(${schools}::uuid[])
        UNION ALL
        SELECT e.user_id FROM classes c CROSS JOIN LATERAL (
          SELECT e.user_id FROM enrollments e WHERE e.class_id = c.id AND e.active OFFSET 0) e
         WHERE c.active AND c.school_id = ANY(${schools}::uuid[]))`);
    // As one set (not `is_admin OR …`, which tests every user in turn).
    if (filter.role === 'administrator')
      where.push(`id IN (
        SELECT a.id FROM users a WHERE a.is_admin
        UNION ALL
        SELECT r.user_id FROM user_roles r WHERE r.active AND r.role = 'administrator'
        ${schools ? `AND r.school_id = ANY(${schools}::uuid[])` : ''})`);
    else if (filter.role) where.push(`role = ${arg(filter.role)}`);
    if (filter.approved !== undefined) where.push(`approved = ${arg(filter.approved)}`);
    const filtered = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const countParams = [...params];

    const keyset = filter.after
      ? `${where.length ? 'AND' : 'WHERE'} (created_at, id) < (${arg(filter.after.createdAt)}::timestamptz, ${arg(filter.after.id)}::uuid)`
      : '';
    const [rows, counted] = await Promise.all([
      this.users.query(
        `SELECT id, name, username, email, role, approved, is_admin, profile_image, token_version,
                sessions_valid_from_version, created_at, updated_at,
                to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_at
           FROM users ${filtered} ${keyset}
          ORDER BY created_at DESC, id DESC
          LIMIT ${arg(filter.limit + 1)}`,
        params,
      ) as Promise<UsersPageRow[]>,
      this.users.query(`SELECT count(*)::int AS total FROM users ${filtered}`, countParams) as Promise<
        { total: number }[]
      >,
    ]);
    const page = rows.slice(0, filter.limit);
    const last = page[page.length - 1];
    return {
      users: page.map(toUserEntity),
      total: counted[0]?.total ?? 0,
      next: rows.length > filter.limit && last ? { createdAt: last.cursor_at, id: last.id } : null,
    };
  }

  /** The schools where the person is an active school administrator (user_roles, ADR 0042). */
  async administeredSchoolIds(userId: string): Promise<string[]> {
    const canonical = canonicalUuid(userId);
    if (!canonical) return [];
    const rows: { school_id: string }[] = await this.users.query(
      `SELECT DISTINCT school_id FROM user_roles
        WHERE user_id = $1 AND active AND role = 'administrator' ORDER BY school_id`,
      [canonical],
    );
    return rows.map((r) => r.school_id);
  }

  /** True when the person has an active role, or an active enrolment in an active class, at one of the schools. */
  async isInSchools(tx: EntityManager, userId: string, schoolIds: readonly string[]): Promise<boolean> {
    const rows: { member: boolean }[] = await tx.query(
      `SELECT EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = $1 AND r.active AND r.school_id = ANY($2::uuid[]))
           OR EXISTS (SELECT 1 FROM enrollments e JOIN classes c ON c.id = e.class_id
                       WHERE e.user_id = $1 AND e.active AND c.active AND c.school_id = ANY($2::uuid[])) AS member`,
      [userId, schoolIds],
    );
    return rows[0]?.member === true;
  }

  /** Unknown and malformed ids alike are simply not found. */
  async findById(id: string): Promise<UserEntity | null> {
    const canonical = canonicalUuid(id);
    return canonical ? this.users.findOneBy({ id: canonical }) : null;
  }

  /**
   * The user's row at token version `version`, read from the database at most once per version and minute.
   * Every write to a user bumps its version (UsersService.change; a new row starts at 1; a deleted one's
   * version is gone from the session state, so no session gets here), so a row read at version v is still
   * the row at v: this is the session check's hot path (`/api/auth/me`), decided by the version the caller
   * got from the shared session state, never by time. The minute bounds what a process keeps of a user that
   * was deleted and created again under the same id (the demo accounts' fixed ids).
   */
  async findAtVersion(id: string, version: number): Promise<UserEntity | null> {
    const canonical = canonicalUuid(id);
    if (!canonical) return null;
    const kept = this.atVersion.get(canonical);
    if (kept && kept.user.tokenVersion === version && Date.now() - kept.readAt < ROW_AT_VERSION_MS)
      return kept.user;
    const user = await this.users.findOneBy({ id: canonical });
    this.atVersion.delete(canonical);
    if (user) {
      if (this.atVersion.size >= ROWS_AT_VERSION) {
        const oldest = this.atVersion.keys().next().value;
        if (oldest !== undefined) this.atVersion.delete(oldest);
      }
      this.atVersion.set(canonical, { user, readAt: Date.now() });
    }
    return user;
  }

  findByEmail(email: string): Promise<UserEntity | null> {
    return this.users.createQueryBuilder('u').where('lower(u.email) = lower(:email)', { email }).getOne();
  }

  /** Which unique field of a would-be account is already taken (email first), for a friendly 409. */
  async takenField(email: string, username: string): Promise<'email' | 'username' | null> {
    const rows: { email_taken: boolean; username_taken: boolean }[] = await this.users.query(
      `SELECT EXISTS (SELECT 1 FROM users WHERE lower(email) = lower($1)) AS email_taken,
              EXISTS (SELECT 1 FROM users WHERE lower(username) = lower($2)) AS username_taken`,
      [email, username],
    );
    if (rows[0]?.email_taken) return 'email';
    if (rows[0]?.username_taken) return 'username';
    return null;
  }

  /** Every user's token version, in batches (warming the shared session state at start). */
  async *tokenVersions(): AsyncGenerator<Record<string, number>> {
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const rows: { id: string; token_version: number }[] = await this.users.query(
        `SELECT id, token_version FROM users WHERE id > $1 ORDER BY id LIMIT $2`,
        [after, VERSION_BATCH],
      );
      if (rows.length === 0) return;
      yield Object.fromEntries(rows.map((r) => [r.id, r.token_version]));
      after = rows[rows.length - 1].id;
    }
  }

  /**
   * Inserts a user and reads the row back. With `ifAbsent`, a clash on id, email or username inserts nothing
   * and answers null; without it, the clash breaks a unique constraint (USERS_EMAIL_KEY, USERS_USERNAME_KEY).
   */
  async insert(
    tx: EntityManager,
    input: NewUser,
    passwordHash: string | null,
    ifAbsent: boolean,
  ): Promise<UserEntity | null> {
    const id = input.id ?? randomUUID();
    const query = tx
      .createQueryBuilder()
      .insert()
      .into(UserEntity)
      .values({
        id,
        name: input.name,
        username: input.username,
        email: input.email.toLowerCase(),
        passwordHash,
        role: input.role,
        approved: input.approved,
        isAdmin: input.isAdmin,
        profileImage: null,
        tokenVersion: 1,
        sessionsValidFromVersion: 0,
        ...(input.createdAt ? { createdAt: input.createdAt } : {}),
      })
      .returning(['id']);
    const result = await (ifAbsent ? query.orIgnore() : query).execute();
    if ((result.raw as unknown[]).length === 0) return null;
    return tx.findOneByOrFail(UserEntity, { id });
  }

  /** The user's row (`id` canonical), locked (FOR UPDATE) until `tx` ends; null when there is none. */
  findForUpdate(tx: EntityManager, id: string): Promise<UserEntity | null> {
    return tx.findOne(UserEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  /** Writes the changed columns of a row read in `tx`. */
  async save(tx: EntityManager, user: UserEntity): Promise<void> {
    await tx.save(user);
  }

  /** Deletes the user's row. */
  async delete(tx: EntityManager, id: string): Promise<void> {
    await tx.delete(UserEntity, { id });
    this.atVersion.delete(id);
  }
}

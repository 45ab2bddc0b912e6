import { Client } from 'pg';
import type { ProjectionRecord } from './district-report';

interface RosterCounts {
  classes: number;
  members: number;
  sum: string;
}

/**
 * What the district benchmark reads and writes straight in the run's own database: identity's roster and each
 * service's projection counted, the rows a re-import must not touch, and a district's worth of results loaded into
 * assessment's tables (the services' schemas as the standalone launcher creates them: one per service).
 */
export class DistrictDatabase {
  private constructor(private readonly client: Client) {}

  static async connect(url: string): Promise<DistrictDatabase> {
    const client = new Client({ connectionString: url });
    await client.connect();
    return new DistrictDatabase(client);
  }

  close(): Promise<void> {
    return this.client.end();
  }

  async one<T>(sql: string, params: unknown[] = []): Promise<T> {
    const { rows } = await this.client.query(sql, params);
    return rows[0] as T;
  }

  async now(): Promise<string> {
    return (await this.one<{ t: string }>(`SELECT clock_timestamp()::text AS t`)).t;
  }

  /** The schemas that keep a roster projection (every service but identity that consumes the snapshots). */
  async projectionSchemas(): Promise<string[]> {
    const { rows } = await this.client.query<{ s: string }>(
      `SELECT table_schema AS s FROM information_schema.tables WHERE table_name = 'roster_members' ORDER BY 1`,
    );
    return rows.map((r) => r.s);
  }

  /**
   * identity's active classes and the active enrolments in them: what every projection must hold; `sum` is a
   * checksum of the (class, person, role) triples, so that equal counts of different members do not pass.
   */
  async identityRoster(): Promise<RosterCounts> {
    return this.one(
      `SELECT (SELECT count(*)::int FROM identity.classes WHERE active) AS classes, count(*)::int AS members,
              coalesce(sum(hashtext(e.class_id::text || e.user_id::text || e.role)::bigint), 0)::text AS sum
         FROM identity.enrollments e JOIN identity.classes c ON c.id = e.class_id WHERE e.active AND c.active`,
    );
  }

  async projection(schema: string): Promise<RosterCounts> {
    return this.one(
      `SELECT (SELECT count(*)::int FROM "${schema}".roster_classes WHERE active) AS classes, count(*)::int AS members,
              coalesce(sum(hashtext(m.class_id::text || m.user_id::text || m.role)::bigint), 0)::text AS sum
         FROM "${schema}".roster_members m JOIN "${schema}".roster_classes c ON c.id = m.class_id WHERE c.active`,
    );
  }

  /**
   * Polls every `everyMs` until each projection holds identity's counts (identity's own counted again each time,
   * as a consumer could still be applying the last snapshots) or `giveUpMs` has passed since `since`.
   */
  async waitConsistent(since: number, everyMs: number, giveUpMs: number): Promise<ProjectionRecord> {
    const schemas = await this.projectionSchemas();
    const done = new Map<string, number>();
    const last = new Map<string, RosterCounts>();
    let identity: RosterCounts;
    while (true) {
      identity = await this.identityRoster();
      for (const schema of schemas) {
        if (done.has(schema)) continue;
        const p = await this.projection(schema);
        last.set(schema, p);
        if (p.classes === identity.classes && p.members === identity.members && p.sum === identity.sum)
          done.set(schema, Date.now() - since);
      }
      if (done.size === schemas.length || Date.now() - since > giveUpMs) break;
      await new Promise((r) => setTimeout(r, everyMs));
    }
    return {
      identity: { classes: identity.classes, members: identity.members },
      services: schemas.map((service) => ({
        service,
        classes: last.get(service)?.classes ?? 0,
        members: last.get(service)?.members ?? 0,
        consistentAfterMs: done.get(service) ?? null,
      })),
    };
  }

  /** Rows of identity's roster tables changed since `since` (a DB timestamp), and outbox rows added in any schema. */
  async writesSince(since: string): Promise<{ rowsTouched: number; outboxAdded: number }> {
    const touched = await this.one<{ n: number }>(
      `SELECT (SELECT count(*) FROM identity.users WHERE updated_at >= $1)
            + (SELECT count(*) FROM identity.schools WHERE updated_at >= $1)
            + (SELECT count(*) FROM identity.classes WHERE updated_at >= $1) AS n`,
      [since],
    );
    const { rows } = await this.client.query<{ s: string }>(
      `SELECT table_schema AS s FROM information_schema.tables WHERE table_name = 'outbox'`,
    );
    let outboxAdded = 0;
    for (const { s } of rows)
      outboxAdded += (
        await this.one<{ n: number }>(`SELECT count(*)::int AS n FROM "${s}".outbox WHERE created_at >= $1`, [
          since,
        ])
      ).n;
    return { rowsTouched: Number(touched.n), outboxAdded };
  }

  async districtCounts(): Promise<{ users: number; classes: number; enrollments: number }> {
    return this.one(
      `SELECT (SELECT count(*)::int FROM identity.users WHERE sourced_id IS NOT NULL) AS users,
              (SELECT count(*)::int FROM identity.classes) AS classes,
              (SELECT count(*)::int FROM identity.enrollments) AS enrollments`,
    );
  }

  async userIdByEmail(email: string): Promise<string> {
    const row = await this.one<{ id: string } | undefined>(
      `SELECT id::text FROM identity.users WHERE lower(email) = lower($1)`,
      [email],
    );
    if (!row) throw new Error(`no account ${email} after the import`);
    return row.id;
  }

  /** Three letters that start many people's names (the admin's search): the commonest first three of a given name. */
  async commonPrefix(): Promise<string> {
    const row = await this.one<{ p: string } | undefined>(
      `SELECT lower(left(name, 3)) AS p FROM identity.users WHERE sourced_id IS NOT NULL
        GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`,
    );
    return row?.p ?? 'ann';
  }

  async firstSchoolOf(teacherId: string): Promise<string> {
    const row = await this.one<{ id: string } | undefined>(
      `SELECT c.school_id::text AS id FROM identity.enrollments e JOIN identity.classes c ON c.id = e.class_id
        WHERE e.user_id = $1 AND e.active LIMIT 1`,
      [teacherId],
    );
    if (!row) throw new Error('the benchmark teacher teaches no class');
    return row.id;
  }

  /** A quiz assigned to one of the teacher's classes (for item analysis). */
  async quizOfTeacher(teacherId: string): Promise<string> {
    const row = await this.one<{ id: string } | undefined>(
      `SELECT q.id::text FROM assessment.quizzes q
         JOIN assessment.roster_members m ON m.class_id = ANY (q.class_ids)
        WHERE m.user_id = $1 AND m.role = 'teacher' ORDER BY q.id LIMIT 1`,
      [teacherId],
    );
    if (!row) throw new Error('no quiz is assigned to the benchmark teacher’s classes');
    return row.id;
  }

  /**
   * `quizzes` text quizzes: all but ten assigned to the active classes in turn (a class has one, a quiz the classes
   * whose rank is its number modulo theirs), ten unassigned; then `perStudent` results a pupil, on their classes'
   * quizzes in turn, spread over 180 days; then ANALYZE. All in one transaction, generated by the database.
   */
  async loadGrades(quizzes: number, perStudent: number): Promise<{ rows: number; quizzes: number }> {
    const questions = JSON.stringify(
      ['uno', 'dos', 'tres'].map((question, i) => ({
        question,
        options: ['a', 'b', 'c', 'd'],
        correctAnswer: i,
      })),
    );
    const assigned = Math.max(1, quizzes - 10);
    await this.client.query('BEGIN');
    try {
      await this.client.query(
        `CREATE TEMP TABLE bench_class_quiz ON COMMIT DROP AS
           SELECT id AS class_id, r % $1 AS q, md5('bench-quiz-' || (r % $1))::uuid AS quiz_id
             FROM (SELECT id, row_number() OVER (ORDER BY id) - 1 AS r FROM assessment.roster_classes WHERE active) c`,
        [assigned],
      );
      const made = await this.client.query(
        `INSERT INTO assessment.quizzes
           (id, kind, title, description, max_attempts, questions, created_by_id, created_by_name, class_ids, created_at)
         SELECT quiz_id, 'text', 'Bench quiz ' || q, '', -1, $1::jsonb,
                (SELECT m.user_id FROM assessment.roster_members m
                  WHERE m.class_id = (array_agg(cq.class_id ORDER BY cq.class_id))[1] AND m.role = 'teacher' LIMIT 1),
                'Teacher', array_agg(cq.class_id ORDER BY cq.class_id), now() - interval '200 days' + q * interval '1 hour'
           FROM bench_class_quiz cq GROUP BY quiz_id, q`,
        [questions],
      );
      await this.client.query(
        `INSERT INTO assessment.quizzes (id, kind, title, description, max_attempts, questions, created_by_name, created_at)
         SELECT md5('bench-open-quiz-' || q)::uuid, 'text', 'Open quiz ' || q, '', -1, $1::jsonb, 'Admin',
                now() - interval '300 days' + q * interval '1 hour'
           FROM generate_series(0, 9) q`,
        [questions],
      );
      await this.client.query(
        `CREATE TEMP TABLE bench_student_quiz ON COMMIT DROP AS
           SELECT m.user_id, cq.quiz_id, cq.q,
                  row_number() OVER (PARTITION BY m.user_id ORDER BY m.class_id) - 1 AS k,
                  count(*) OVER (PARTITION BY m.user_id) AS n
             FROM assessment.roster_members m JOIN bench_class_quiz cq ON cq.class_id = m.class_id
            WHERE m.role = 'student'`,
      );
      const grades = await this.client.query(
        `INSERT INTO assessment.grades (kind, quiz_id, user_id, user_name, quiz_title, score, correct_answers,
                                        total_questions, passed, user_answers, questions, quiz_version, created_at)
         SELECT 'text', sq.quiz_id, sq.user_id, u.name, 'Bench quiz ' || sq.q, (ARRAY[0, 33, 67, 100])[h % 4 + 1],
                h % 4, 3, h % 4 >= 2, jsonb_build_array(h % 4, (h / 4) % 4, (h / 16) % 4), $1::jsonb, 1,
                now() - (h % 15552000) * interval '1 second'
           FROM (SELECT DISTINCT user_id, n FROM bench_student_quiz) s
           CROSS JOIN generate_series(0, $2::int - 1) g
           JOIN bench_student_quiz sq ON sq.user_id = s.user_id AND sq.k = g % s.n
           JOIN identity.users u ON u.id = s.user_id
           CROSS JOIN LATERAL (SELECT abs(hashtext(s.user_id::text || ':' || g)) AS h) x`,
        [questions, perStudent],
      );
      await this.client.query('COMMIT');
      await this.client.query('ANALYZE assessment.grades');
      await this.client.query('ANALYZE assessment.quizzes');
      return { rows: grades.rowCount ?? 0, quizzes: (made.rowCount ?? 0) + 10 };
    } catch (error) {
      await this.client.query('ROLLBACK');
      throw error;
    }
  }

  /** Turns auto_explain on (or off) for the database's new sessions: every statement's plan, with ANALYZE and BUFFERS. */
  async autoExplain(database: string, on: boolean): Promise<void> {
    if (!on) {
      await this.client.query(`ALTER DATABASE "${database}" RESET ALL`);
      return;
    }
    for (const [name, value] of [
      ['session_preload_libraries', 'auto_explain'],
      ['auto_explain.log_min_duration', '0'],
      ['auto_explain.log_analyze', 'on'],
      ['auto_explain.log_buffers', 'on'],
      ['auto_explain.log_nested_statements', 'on'],
    ])
      await this.client.query(`ALTER DATABASE "${database}" SET ${name} = '${value}'`);
  }
}

/**
 * The plans auto_explain logged for one database in a slice of the server's log (stderr format with
 * `log_line_prefix` naming `user@database`): each entry's duration and its plan text, continuation lines included.
 */
export function plansInLog(text: string, database: string): Array<{ durationMs: number; plan: string }> {
  const entries: string[] = [];
  for (const line of text.split('\n')) {
    if (/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/.test(line)) entries.push(line);
    else if (entries.length > 0) entries[entries.length - 1] += `\n${line}`;
  }
  const plans: Array<{ durationMs: number; plan: string }> = [];
  for (const entry of entries) {
    const match = new RegExp(`@${database} LOG:  duration: ([\\d.]+) ms  plan:\\n([\\s\\S]*)$`).exec(entry);
    if (match) plans.push({ durationMs: Number(match[1]), plan: match[2].replace(/^\t/gm, '') });
  }
  return plans;
}

/**
 * A statement that runs beside every request rather than for it: the outbox relays' claims and clean-ups, the
 * inbox, advisory locks. Its plan is logged in the same window as a probe's and must not be taken for the probe's.
 */
export function isBackgroundStatement(plan: string): boolean {
  const text = plan.split('\n').slice(0, 6).join(' ');
  return /^Query Text: [\s\S]*("?outbox"?|"?inbox"?|pg_advisory_)/.test(text);
}

import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PASS_MARK, type QuizKind, type RevealAnswers } from '@district/contracts';
import { scopeFilter, type RosterScopeSet } from '@district/nest-common';
import type { StoredGrade } from './review';
import { toGrade, type GradeRow } from './grades.repository';

/** Where a list, a summary or an analysis looks (ADR 0042): all filters combine, the scope always applies. */
export interface GradeFilter {
  kind: QuizKind;
  /** The people the caller acts on (the roster scope); a student's own list passes `all` with their `userId`. */
  scope: RosterScopeSet;
  userId?: string;
  quizId?: string;
  /** The students of this class (the caller manages it: checked before). */
  classId?: string;
}

/** The sort key of a row (newest first): its time to the microsecond and its id. */
export interface GradeKey {
  createdAt: string;
  id: string;
}

export interface GradePage {
  grades: StoredGrade[];
  total: number;
  /** The key of the page's last row when more may follow. */
  next: GradeKey | null;
}

/** Per quiz in scope: its title (the quiz's today, a deleted one's as stored), results, their scores. */
export interface QuizTally {
  id: string;
  title: string;
  attempts: number;
  scoreSum: number;
  passed: number;
}

/** A quiz's tally as SQL answers it (the sum is a bigint, so text). */
interface TallyRow {
  id: string;
  title: string;
  attempts: number;
  score_sum: string;
  passed: number;
}

const toTally = (r: TallyRow): QuizTally => ({
  id: r.id,
  title: r.title,
  attempts: r.attempts,
  scoreSum: Number(r.score_sum),
  passed: r.passed,
});

interface PageRow extends GradeRow {
  reveal_answers: RevealAnswers | null;
  cursor_at: string;
}

/** A timestamptz in UTC to the microsecond, as a cursor carries it (a JavaScript Date keeps milliseconds). */
const MICROS = `to_char(g.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

const COLUMNS = `g.id, g.kind, g.quiz_id, g.user_id, g.user_name, g.quiz_title, g.score, g.correct_answers,
  g.total_questions, g.passed, g.user_answers, g.questions, g.quiz_version, g.created_at, g.reveal_answers,
  ${MICROS} AS cursor_at`;

/** The WHERE of a filter over `grades g`, its parameters from `$1`. */
function where(filter: GradeFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [filter.kind];
  const parts = ['g.kind = $1'];
  if (filter.userId) {
    params.push(filter.userId);
    parts.push(`g.user_id = $${params.length}`);
  }
  if (filter.quizId) {
    params.push(filter.quizId);
    parts.push(`g.quiz_id = $${params.length}`);
  }
  if (filter.classId) {
    params.push(filter.classId);
    parts.push(`g.user_id = ANY(ARRAY(SELECT cm.user_id FROM roster_members cm
      WHERE cm.class_id = $${params.length} AND cm.role = 'student'))`);
  }
  const scope = scopeFilter(filter.scope, 'g.user_id', params.length + 1);
  if (scope.sql !== 'TRUE') parts.push(scope.sql);
  params.push(...scope.params);
  return { sql: parts.join(' AND '), params };
}

/**
 * Whether the filter reads every result of its kind (or of one quiz): a district administrator's dashboard, or any
 * dashboard where the installation has no classes. Its count and tally come from `grade_tallies`, kept by triggers
 * as results are written (migration 1733900000000), instead of counting every row.
 */
function unscoped(filter: GradeFilter): boolean {
  return filter.scope.all && !filter.userId && !filter.classId;
}

/** The tallies' WHERE for an unscoped filter, its parameters from `$1`. */
function talliesWhere(filter: GradeFilter): { sql: string; params: unknown[] } {
  return filter.quizId
    ? { sql: 't.kind = $1 AND t.quiz_id = $2', params: [filter.kind, filter.quizId] }
    : { sql: 't.kind = $1', params: [filter.kind] };
}

/**
 * The SQL of results as the dashboards read them (ADR 0042): pages newest first by keyset, the summary and the
 * item analysis over the whole scope, the gradebook export's rows. The scope is a condition of the statement
 * (RosterScope's filter), never a filter over rows already read.
 */
@Injectable()
export class GradePagesRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** One page, newest first (created_at DESC, id), after `after`'s row; the whole filter's count. */
  async page(filter: GradeFilter, limit: number, after?: GradeKey): Promise<GradePage> {
    const w = where(filter);
    const params = [...w.params];
    let keyset = '';
    if (after) {
      params.push(after.createdAt, after.id);
      const t = `$${params.length - 1}::timestamptz`;
      const i = `$${params.length}::uuid`;
      keyset = `AND (g.created_at < ${t} OR (g.created_at = ${t} AND g.id > ${i}))`;
    }
    params.push(limit + 1);
    const [rows, counted] = await Promise.all([
      // The page's keys first (index only over the scope's results), then only those rows whole.
      this.dataSource.query(
        `SELECT ${COLUMNS} FROM grades g
          WHERE g.id = ANY(ARRAY(SELECT g.id FROM grades g WHERE ${w.sql} ${keyset}
                                  ORDER BY g.created_at DESC, g.id LIMIT $${params.length}))
          ORDER BY g.created_at DESC, g.id`,
        params,
      ) as Promise<PageRow[]>,
      this.count(filter),
    ]);
    const more = rows.length > limit;
    const shown = more ? rows.slice(0, limit) : rows;
    const last = shown[shown.length - 1];
    return {
      grades: shown.map(toGrade),
      total: counted,
      next: more && last ? { createdAt: last.cursor_at, id: last.id } : null,
    };
  }

  /** How many results the filter holds. */
  private async count(filter: GradeFilter): Promise<number> {
    if (unscoped(filter)) {
      const t = talliesWhere(filter);
      const [row] = (await this.dataSource.query(
        `SELECT COALESCE(sum(t.attempts), 0)::int AS n FROM grade_tallies t WHERE ${t.sql}`,
        t.params,
      )) as { n: number }[];
      return row.n;
    }
    const w = where(filter);
    const [row] = (await this.dataSource.query(
      `SELECT count(*)::int AS n FROM grades g WHERE ${w.sql}`,
      w.params,
    )) as { n: number }[];
    return row.n;
  }

  /** Per quiz with results in the filter: attempts, score sum and passes (the summary adds them up). */
  async tally(filter: GradeFilter): Promise<QuizTally[]> {
    if (unscoped(filter)) return this.tallyAll(filter);
    const w = where(filter);
    const rows: TallyRow[] = await this.dataSource.query(
      `SELECT t.quiz_id AS id, COALESCE(q.title, t.title) AS title, t.attempts, t.score_sum, t.passed
           FROM (SELECT g.quiz_id, max(g.quiz_title) AS title, count(*)::int AS attempts,
                        sum(g.score)::bigint AS score_sum,
                        count(*) FILTER (WHERE g.score >= ${Number(PASS_MARK)})::int AS passed
                   FROM grades g WHERE ${w.sql} GROUP BY g.quiz_id) t
           LEFT JOIN quizzes q ON q.id = t.quiz_id
          ORDER BY title, id`,
      w.params,
    );
    return rows.map(toTally);
  }

  /** tally() of an unscoped filter, from the kept tallies (a quiz whose results were all deleted has none). */
  private async tallyAll(filter: GradeFilter): Promise<QuizTally[]> {
    const t = talliesWhere(filter);
    const rows: TallyRow[] = await this.dataSource.query(
      `SELECT s.quiz_id AS id, COALESCE(q.title, s.title) AS title, s.attempts, s.score_sum, s.passed
           FROM (SELECT t.quiz_id, max(t.quiz_title) AS title, sum(t.attempts)::int AS attempts,
                        sum(t.score_sum)::bigint AS score_sum, sum(t.passed)::int AS passed
                   FROM grade_tallies t WHERE ${t.sql} GROUP BY t.quiz_id HAVING sum(t.attempts) > 0) s
           LEFT JOIN quizzes q ON q.id = s.quiz_id
          ORDER BY title, id`,
      t.params,
    );
    return rows.map(toTally);
  }

  /** The filter's results on `version` (score and answers), and how many are on other versions. */
  async forAnalysis(
    filter: GradeFilter,
    version: number,
  ): Promise<{ current: { score: number; userAnswers: number[] }[]; older: number }> {
    const w = where(filter);
    const v = `$${w.params.length + 1}`;
    const [current, older] = await Promise.all([
      this.dataSource.query(
        `SELECT g.score, g.user_answers FROM grades g WHERE ${w.sql} AND g.quiz_version = ${v}`,
        [...w.params, version],
      ) as Promise<{ score: number; user_answers: number[] }[]>,
      this.dataSource.query(
        `SELECT count(*)::int AS n FROM grades g WHERE ${w.sql} AND g.quiz_version <> ${v}`,
        [...w.params, version],
      ) as Promise<{ n: number }[]>,
    ]);
    return {
      current: current.map((r) => ({ score: r.score, userAnswers: r.user_answers })),
      older: older[0].n,
    };
  }

  /** Whether the result exists and its person is in the scope (a result outside it is, to the caller, not there). */
  async inScope(kind: QuizKind, id: string, scope: RosterScopeSet): Promise<boolean> {
    const f = scopeFilter(scope, 'g.user_id', 3);
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM grades g WHERE g.kind = $1 AND g.id = $2 AND ${f.sql}`,
      [kind, id, ...f.params],
    );
    return rows.length > 0;
  }
}

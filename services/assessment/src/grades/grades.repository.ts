import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { QuizKind, QuizQuestion, RevealAnswers } from '@district/contracts';
import { jsonb } from '@district/nest-common';
import type { Marked } from './marking';
import type { StoredGrade } from './review';

export interface GradeRow {
  id: string;
  kind: QuizKind;
  quiz_id: string;
  user_id: string;
  user_name: string;
  quiz_title: string;
  score: number;
  correct_answers: number;
  total_questions: number;
  passed: boolean;
  user_answers: number[];
  questions: QuizQuestion[];
  quiz_version: number;
  created_at: Date;
  /** Absent from `submit_grade`'s answer: a result it stores belongs to a quiz that exists. */
  reveal_answers?: RevealAnswers | null;
}

const COLUMNS = `id, kind, quiz_id, user_id, user_name, quiz_title, score, correct_answers, total_questions, passed,
  user_answers, questions, quiz_version, created_at, reveal_answers`;

export function toGrade(row: GradeRow): StoredGrade {
  const at = row.created_at.toISOString();
  return {
    id: row.id,
    kind: row.kind,
    quizId: row.quiz_id,
    userId: row.user_id,
    userName: row.user_name,
    quizTitle: row.quiz_title,
    score: row.score,
    correctAnswers: row.correct_answers,
    totalQuestions: row.total_questions,
    passed: row.passed,
    userAnswers: row.user_answers,
    questions: row.questions,
    quizVersion: row.quiz_version,
    createdAt: at,
    completedAt: at,
    revealAnswers: row.reveal_answers ?? null,
  };
}

/** What `submit_grade` did: stored the result, answered the one stored under the key, or refused. */
export type SubmitStatus = 'created' | 'replayed' | 'limit' | 'stale' | 'missing';

export interface SubmitOutcome {
  status: SubmitStatus;
  /** The result stored ('created') or the one under the key ('replayed'). */
  grade: StoredGrade | null;
  /** 'limit': the results taken and the attempts allowed. */
  taken: number | null;
  allowed: number | null;
}

/** A submission as `submit_grade` takes it: marked by the replica against `version` of the quiz. */
export interface MarkedSubmission {
  id: string;
  createdAt: Date;
  kind: QuizKind;
  quizId: string;
  version: number;
  userId: string;
  userName: string;
  marked: Marked;
  userAnswers: number[];
  idempotencyKey: string | null;
  /** Its `assessment.grade.recorded` event's outbox values (`OutboxService.eventValues`). */
  event: readonly [id: string, subject: string, payload: string, headers: string];
}

/** Rows an UPDATE or DELETE changed (TypeORM answers them as [rows, count]). */
async function affectedBy(tx: EntityManager, sql: string, params: unknown[]): Promise<number> {
  const [, affected] = (await tx.query(sql, params)) as [unknown, number];
  return affected;
}

/** The SQL of results. `tx` runs a statement inside the caller's transaction. */
@Injectable()
export class GradesRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async count(quizId: string, userId: string, tx?: EntityManager): Promise<number> {
    const rows: { n: string }[] = await (tx ?? this.dataSource).query(
      `SELECT count(*) AS n FROM grades WHERE quiz_id = $1 AND user_id = $2`,
      [quizId, userId],
    );
    return Number(rows[0].n);
  }

  async findByKey(tx: EntityManager, userId: string, key: string): Promise<StoredGrade | null> {
    const rows: GradeRow[] = await tx.query(
      `SELECT ${COLUMNS} FROM grades WHERE user_id = $1 AND idempotency_key = $2`,
      [userId, key],
    );
    return rows.length > 0 ? toGrade(rows[0]) : null;
  }

  /**
   * A whole submission in one statement, its own transaction unless `manager` is in one (`submit_grade`, its
   * migration): under the attempt lock of the quiz and person, on every replica, the result under the key, or the
   * checks (the quiz still at `version`, the attempt limit with the person's extra attempts) and the result with its
   * event. The quiz's title, questions and version are stored from its row, read under the lock.
   */
  async submit(manager: EntityManager, s: MarkedSubmission): Promise<SubmitOutcome> {
    const rows: (Partial<GradeRow> & {
      status: SubmitStatus;
      taken: number | null;
      allowed: number | null;
    })[] = await manager.query(
      `SELECT * FROM submit_grade($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb, $14, $15, $16, $17)`,
      [
        s.kind,
        s.quizId,
        s.userId,
        s.idempotencyKey,
        s.version,
        s.id,
        s.createdAt,
        s.userName,
        s.marked.score,
        s.marked.correctAnswers,
        s.marked.totalQuestions,
        s.marked.passed,
        jsonb(s.userAnswers),
        ...s.event,
      ],
    );
    const row = rows[0];
    return {
      status: row.status,
      grade: row.id ? toGrade(row as GradeRow) : null,
      taken: row.taken,
      allowed: row.allowed,
    };
  }

  /**
   * A result, its row locked until `tx` ends, with its quiz's owner as stored now (`quizExists` false: the quiz
   * was deleted, its results are the administrators'); null when there is no such result.
   */
  async lockWithOwner(
    tx: EntityManager,
    kind: QuizKind,
    id: string,
  ): Promise<{
    quizTitle: string;
    userName: string;
    userId: string;
    quizExists: boolean;
    ownerId: string | null;
  } | null> {
    const rows = (await tx.query(
      `SELECT g.quiz_title, g.user_name, g.user_id, q.id IS NOT NULL AS quiz_exists, q.created_by_id
         FROM grades g LEFT JOIN quizzes q ON q.id = g.quiz_id AND q.kind = g.kind
        WHERE g.kind = $1 AND g.id = $2
        FOR UPDATE OF g`,
      [kind, id],
    )) as {
      quiz_title: string;
      user_name: string;
      user_id: string;
      quiz_exists: boolean;
      created_by_id: string | null;
    }[];
    if (rows.length === 0) return null;
    const [row] = rows;
    return {
      quizTitle: row.quiz_title,
      userName: row.user_name,
      userId: row.user_id,
      quizExists: row.quiz_exists,
      ownerId: row.created_by_id,
    };
  }

  async delete(tx: EntityManager, kind: QuizKind, id: string): Promise<boolean> {
    return (await affectedBy(tx, `DELETE FROM grades WHERE kind = $1 AND id = $2`, [kind, id])) > 0;
  }

  /** Names shown on results stay current (identity.user.updated). */
  async rename(tx: EntityManager, userId: string, name: string): Promise<number> {
    return affectedBy(tx, `UPDATE grades SET user_name = $2 WHERE user_id = $1 AND user_name <> $2`, [
      userId,
      name,
    ]);
  }

  /** A deleted person's results (privacy); answers how many. */
  async deleteAllOf(tx: EntityManager, userId: string): Promise<number> {
    return affectedBy(tx, `DELETE FROM grades WHERE user_id = $1`, [userId]);
  }
}

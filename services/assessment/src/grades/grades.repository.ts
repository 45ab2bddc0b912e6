import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Grade, Quiz, QuizKind, QuizQuestion } from '@district/contracts';
import { jsonb } from '@district/nest-common';
import { toQuiz, type QuizRow } from '../quizzes/quizzes.repository';

interface GradeRow {
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
}

const COLUMNS = `id, kind, quiz_id, user_id, user_name, quiz_title, score, correct_answers, total_questions, passed,
  user_answers, questions, quiz_version, created_at`;

function toGrade(row: GradeRow): Grade {
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
  };
}

export type NewGrade = Omit<Grade, 'id' | 'createdAt' | 'completedAt'> & { idempotencyKey: string | null };

/** What a submission must know before marking, read with the attempt lock (GradesRepository.lockAttempt). */
export interface AttemptState {
  quiz: Quiz | null;
  /** Results this person already has on the quiz. */
  taken: number;
  /** Their accommodation's extra attempts (0 without one). */
  extra: number;
  /** The id of the result already stored under the submission's Idempotency-Key, if any. */
  storedId: string | null;
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

  /** A kind's results, newest first, optionally for one person and/or one quiz. */
  async list(kind: QuizKind, filter: { userId?: string; quizId?: string }): Promise<Grade[]> {
    const rows: GradeRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM grades
       WHERE kind = $1 AND ($2::uuid IS NULL OR user_id = $2) AND ($3::uuid IS NULL OR quiz_id = $3)
       ORDER BY created_at DESC, id`,
      [kind, filter.userId ?? null, filter.quizId ?? null],
    );
    return rows.map(toGrade);
  }

  async count(quizId: string, userId: string, tx?: EntityManager): Promise<number> {
    const rows: { n: string }[] = await (tx ?? this.dataSource).query(
      `SELECT count(*) AS n FROM grades WHERE quiz_id = $1 AND user_id = $2`,
      [quizId, userId],
    );
    return Number(rows[0].n);
  }

  async findByKey(tx: EntityManager, userId: string, key: string): Promise<Grade | null> {
    const rows: GradeRow[] = await tx.query(
      `SELECT ${COLUMNS} FROM grades WHERE user_id = $1 AND idempotency_key = $2`,
      [userId, key],
    );
    return rows.length > 0 ? toGrade(rows[0]) : null;
  }

  /**
   * Takes the attempt lock of `quizId` and `userId` (transaction-scoped: every submission of this person on this
   * quiz, on every replica, waits here for the one before it), then reads everything a submission checks: the quiz,
   * how many results the person has on it, their extra attempts, and a result already stored under `key`. One round
   * trip: the `attempt_state` function (its migration says why its read sees the previous holder's commit).
   */
  async lockAttempt(tx: EntityManager, kind: QuizKind, quizId: string, userId: string, key: string | null): Promise<AttemptState> {
    const rows: (Partial<QuizRow> & { taken: number; extra: number; stored_id: string | null })[] = await tx.query(
      `SELECT * FROM attempt_state($1, $2, $3, $4)`,
      [kind, quizId, userId, key],
    );
    const row = rows[0];
    return {
      quiz: row.id ? toQuiz(row as QuizRow) : null,
      taken: row.taken,
      extra: row.extra,
      storedId: row.stored_id,
    };
  }

  /**
   * The INSERT of a result (id and time chosen here, so its event can be written in the same statement:
   * `OutboxService.enqueueWith`); `toGrade` turns the row it returns into the result.
   */
  insertStatement(g: NewGrade & { id: string; createdAt: Date }): { sql: string; params: unknown[] } {
    return {
      sql: `INSERT INTO grades (id, created_at, kind, quiz_id, user_id, user_name, quiz_title, score, correct_answers,
              total_questions, passed, user_answers, questions, quiz_version, idempotency_key)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13::jsonb, $14, $15)
            RETURNING ${COLUMNS}`,
      params: [
        g.id,
        g.createdAt,
        g.kind,
        g.quizId,
        g.userId,
        g.userName,
        g.quizTitle,
        g.score,
        g.correctAnswers,
        g.totalQuestions,
        g.passed,
        jsonb(g.userAnswers),
        jsonb(g.questions),
        g.quizVersion,
        g.idempotencyKey,
      ],
    };
  }

  toGrade(row: unknown): Grade {
    return toGrade(row as GradeRow);
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

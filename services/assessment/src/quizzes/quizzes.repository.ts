import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Quiz, QuizInput, QuizKind, QuizQuestion, RevealAnswers } from '@district/contracts';
import { jsonb } from '@district/nest-common';

export interface QuizRow {
  id: string;
  kind: QuizKind;
  title: string;
  description: string;
  max_attempts: number;
  audio_play_limit: number | null;
  reveal_answers: RevealAnswers;
  questions: QuizQuestion[];
  created_by_id: string | null;
  created_by_name: string;
  version: number;
  created_at: Date;
  updated_at: Date;
  class_ids: string[];
}

export const QUIZ_COLUMNS = `id, kind, title, description, max_attempts, audio_play_limit, reveal_answers, questions,
  created_by_id, created_by_name, version, created_at, updated_at, class_ids`;

export function toQuiz(row: QuizRow): Quiz {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    description: row.description,
    maxAttempts: row.max_attempts,
    audioPlayLimit: row.audio_play_limit,
    revealAnswers: row.reveal_answers,
    createdById: row.created_by_id,
    createdByName: row.created_by_name,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    version: row.version,
    questions: row.questions,
    // Empty: unassigned, the spec's quiz for every student (ADR 0042).
    classIds: row.class_ids ?? [],
  };
}

export interface Author {
  id: string;
  name: string;
}

/** A quiz with one person's attempts on it: results stored and extra attempts granted. */
export interface QuizWithAttempts {
  quiz: Quiz;
  taken: number;
  extra: number;
}

type RowWithAttempts = QuizRow & { taken: number; extra: number };

/** The columns of a quiz plus `taken` and `extra` of person `$2` (the quiz aliased `q`). */
const WITH_ATTEMPTS = `${QUIZ_COLUMNS.replace(/(\w+)/g, 'q.$1')},
  (SELECT count(*)::int FROM grades g WHERE g.quiz_id = q.id AND g.user_id = $2) AS taken,
  COALESCE((SELECT a.extra_attempts FROM accommodations a WHERE a.quiz_id = q.id AND a.user_id = $2), 0) AS extra`;

const withAttempts = (row: RowWithAttempts): QuizWithAttempts => ({
  quiz: toQuiz(row),
  taken: row.taken,
  extra: row.extra,
});

/**
 * A student's quizzes (ADR 0042): the unassigned ones, and those assigned to an active class they are a student of
 * (person `$2`, the quiz aliased `q`), from the roster projection in one statement.
 */
const FOR_STUDENT = `(q.class_ids = '{}' OR q.class_ids && ARRAY(
  SELECT m.class_id FROM roster_members m JOIN roster_classes c ON c.id = m.class_id
   WHERE m.user_id = $2 AND m.role = 'student' AND c.active))`;

/** Whose view of the quizzes: staff see every quiz, students the unassigned ones and their classes' (ADR 0042). */
export type QuizAudience = 'staff' | 'student';

const audience = (who: QuizAudience) => (who === 'student' ? `AND ${FOR_STUDENT}` : '');

/** The SQL of quizzes and their accommodations. `tx` runs a statement inside the caller's transaction. */
@Injectable()
export class QuizzesRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** A kind's quizzes, newest first. */
  async list(kind: QuizKind): Promise<Quiz[]> {
    const rows: QuizRow[] = await this.dataSource.query(
      `SELECT ${QUIZ_COLUMNS} FROM quizzes WHERE kind = $1 ORDER BY created_at DESC, id`,
      [kind],
    );
    return rows.map(toQuiz);
  }

  /**
   * A kind's quizzes the audience lists, newest first, each with `userId`'s attempts (one statement: the quiz list
   * of a class).
   */
  async listWithAttempts(kind: QuizKind, userId: string, who: QuizAudience): Promise<QuizWithAttempts[]> {
    const rows: RowWithAttempts[] = await this.dataSource.query(
      `SELECT ${WITH_ATTEMPTS} FROM quizzes q WHERE q.kind = $1 ${audience(who)}
       ORDER BY q.created_at DESC, q.id`,
      [kind, userId],
    );
    return rows.map(withAttempts);
  }

  /** The quiz with `userId`'s attempts, when the audience may open it (a student: unassigned or their class's). */
  async findWithAttempts(
    kind: QuizKind,
    id: string,
    userId: string,
    who: QuizAudience,
  ): Promise<QuizWithAttempts | null> {
    const rows: RowWithAttempts[] = await this.dataSource.query(
      `SELECT ${WITH_ATTEMPTS} FROM quizzes q WHERE q.kind = $1 AND q.id = $3 ${audience(who)}`,
      [kind, userId, id],
    );
    return rows.length > 0 ? withAttempts(rows[0]) : null;
  }

  /** Whether the student may take the quiz: unassigned, or assigned to an active class they are a student of. */
  async assignedTo(kind: QuizKind, id: string, userId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM quizzes q WHERE q.kind = $1 AND q.id = $3 AND ${FOR_STUDENT}`,
      [kind, userId, id],
    );
    return rows.length > 0;
  }

  /** `userId`'s attempts on each of `quizIds` that still exists (a student's review of their results). */
  async attemptsOn(userId: string, quizIds: string[]): Promise<QuizWithAttempts[]> {
    if (quizIds.length === 0) return [];
    const rows: RowWithAttempts[] = await this.dataSource.query(
      `SELECT ${WITH_ATTEMPTS} FROM quizzes q WHERE q.id = ANY($1::uuid[])`,
      [quizIds, userId],
    );
    return rows.map(withAttempts);
  }

  /** The quiz, its row locked until `tx` ends: a change decided from it (its owner) cannot race another. */
  async lock(tx: EntityManager, kind: QuizKind, id: string): Promise<Quiz | null> {
    const rows: QuizRow[] = await tx.query(
      `SELECT ${QUIZ_COLUMNS} FROM quizzes WHERE kind = $1 AND id = $2 FOR UPDATE`,
      [kind, id],
    );
    return rows.length > 0 ? toQuiz(rows[0]) : null;
  }

  async find(kind: QuizKind, id: string, tx?: EntityManager): Promise<Quiz | null> {
    const rows: QuizRow[] = await (tx ?? this.dataSource).query(
      `SELECT ${QUIZ_COLUMNS} FROM quizzes WHERE kind = $1 AND id = $2`,
      [kind, id],
    );
    return rows.length > 0 ? toQuiz(rows[0]) : null;
  }

  async insert(
    tx: EntityManager,
    kind: QuizKind,
    input: QuizInput,
    author: Author,
    id?: string,
  ): Promise<Quiz | null> {
    const rows: QuizRow[] = await tx.query(
      `INSERT INTO quizzes (id, kind, title, description, max_attempts, audio_play_limit, questions, created_by_id, created_by_name,
         reveal_answers, class_ids)
       VALUES (COALESCE($1::uuid, gen_random_uuid()), $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11::uuid[])
       ON CONFLICT (id) DO NOTHING
       RETURNING ${QUIZ_COLUMNS}`,
      [
        id ?? null,
        kind,
        input.title,
        input.description,
        input.maxAttempts,
        input.audioPlayLimit,
        jsonb(input.questions),
        author.id,
        author.name,
        input.revealAnswers,
        input.classIds ?? [],
      ],
    );
    return rows.length > 0 ? toQuiz(rows[0]) : null;
  }

  /**
   * The whole quiz replaced, its version increased (its classes only when the input names them); null when there is
   * no such quiz of this kind.
   */
  async update(tx: EntityManager, kind: QuizKind, id: string, input: QuizInput): Promise<Quiz | null> {
    const [rows] = (await tx.query(
      `UPDATE quizzes SET title = $3, description = $4, max_attempts = $5, audio_play_limit = $6, questions = $7::jsonb,
         reveal_answers = $8, class_ids = COALESCE($9::uuid[], class_ids), version = version + 1, updated_at = now()
       WHERE kind = $1 AND id = $2
       RETURNING ${QUIZ_COLUMNS}`,
      [
        kind,
        id,
        input.title,
        input.description,
        input.maxAttempts,
        input.audioPlayLimit,
        jsonb(input.questions),
        input.revealAnswers,
        input.classIds ?? null,
      ],
    )) as [QuizRow[], number];
    return rows.length > 0 ? toQuiz(rows[0]) : null;
  }

  /**
   * Deletes the quiz; its results keep its review setting from then on (they outlive it, ADR 0019 §4), so a
   * 'never' quiz's key stays withheld.
   */
  async delete(tx: EntityManager, kind: QuizKind, id: string): Promise<boolean> {
    await tx.query(
      `UPDATE grades g SET reveal_answers = q.reveal_answers FROM quizzes q
        WHERE q.kind = $1 AND q.id = $2 AND g.quiz_id = q.id AND g.kind = q.kind`,
      [kind, id],
    );
    const [, affected] = (await tx.query(`DELETE FROM quizzes WHERE kind = $1 AND id = $2`, [kind, id])) as [
      unknown,
      number,
    ];
    return affected > 0;
  }

  async extraAttempts(quizId: string, userId: string, tx?: EntityManager): Promise<number> {
    const rows: { extra_attempts: number }[] = await (tx ?? this.dataSource).query(
      `SELECT extra_attempts FROM accommodations WHERE quiz_id = $1 AND user_id = $2`,
      [quizId, userId],
    );
    return rows[0]?.extra_attempts ?? 0;
  }

  async setExtraAttempts(tx: EntityManager, quizId: string, userId: string, extra: number): Promise<void> {
    if (extra === 0) {
      await tx.query(`DELETE FROM accommodations WHERE quiz_id = $1 AND user_id = $2`, [quizId, userId]);
      return;
    }
    await tx.query(
      `INSERT INTO accommodations (quiz_id, user_id, extra_attempts) VALUES ($1, $2, $3)
       ON CONFLICT (quiz_id, user_id) DO UPDATE SET extra_attempts = EXCLUDED.extra_attempts, updated_at = now()`,
      [quizId, userId, extra],
    );
  }

  /** A deleted teacher's quizzes: kept, ownerless (administrators only), under the name the classroom uses. */
  async disownAll(tx: EntityManager, userId: string, formerName: string): Promise<void> {
    await tx.query(`UPDATE quizzes SET created_by_id = NULL, created_by_name = $2 WHERE created_by_id = $1`, [
      userId,
      formerName,
    ]);
  }

  /** A deleted person's accommodations (privacy). */
  async deleteAccommodationsOf(tx: EntityManager, userId: string): Promise<void> {
    await tx.query(`DELETE FROM accommodations WHERE user_id = $1`, [userId]);
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Quiz, QuizInput, QuizKind, QuizQuestion } from '@district/contracts';
import { jsonb } from '@district/nest-common';

export interface QuizRow {
  id: string;
  kind: QuizKind;
  title: string;
  description: string;
  max_attempts: number;
  audio_play_limit: number | null;
  questions: QuizQuestion[];
  created_by_id: string | null;
  created_by_name: string;
  version: number;
  created_at: Date;
  updated_at: Date;
}

export const QUIZ_COLUMNS = `id, kind, title, description, max_attempts, audio_play_limit, questions, created_by_id, created_by_name,
  version, created_at, updated_at`;

export function toQuiz(row: QuizRow): Quiz {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    description: row.description,
    maxAttempts: row.max_attempts,
    audioPlayLimit: row.audio_play_limit,
    createdById: row.created_by_id,
    createdByName: row.created_by_name,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    version: row.version,
    questions: row.questions,
  };
}

export interface Author {
  id: string;
  name: string;
}

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
      `INSERT INTO quizzes (id, kind, title, description, max_attempts, audio_play_limit, questions, created_by_id, created_by_name)
       VALUES (COALESCE($1::uuid, gen_random_uuid()), $2, $3, $4, $5, $6, $7::jsonb, $8, $9)
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
      ],
    );
    return rows.length > 0 ? toQuiz(rows[0]) : null;
  }

  /** The whole quiz replaced, its version increased; null when there is no such quiz of this kind. */
  async update(tx: EntityManager, kind: QuizKind, id: string, input: QuizInput): Promise<Quiz | null> {
    const [rows] = (await tx.query(
      `UPDATE quizzes SET title = $3, description = $4, max_attempts = $5, audio_play_limit = $6, questions = $7::jsonb,
         version = version + 1, updated_at = now()
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
      ],
    )) as [QuizRow[], number];
    return rows.length > 0 ? toQuiz(rows[0]) : null;
  }

  async delete(tx: EntityManager, kind: QuizKind, id: string): Promise<boolean> {
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

  /** A deleted person's accommodations (privacy). */
  async deleteAccommodationsOf(tx: EntityManager, userId: string): Promise<void> {
    await tx.query(`DELETE FROM accommodations WHERE user_id = $1`, [userId]);
  }
}

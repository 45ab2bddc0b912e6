import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** A quiz with results from a class's students: one OneRoster line item. */
export interface LineItemRow {
  quizId: string;
  title: string;
  description: string;
  /** The quiz's creation (its first result's when the quiz was deleted). */
  assignedAt: Date;
  /** The quiz's last edit, or its newest result's when later (or when the quiz was deleted). */
  modifiedAt: Date;
  /** Its newest result from the class. */
  lastResultAt: Date;
}

/** A result of a class's student: one OneRoster result. */
export interface ResultRow {
  id: string;
  quizId: string;
  userId: string;
  score: number;
  createdAt: Date;
}

/** Where the last page of results ended: the row's time to the microsecond and its id. */
export interface ResultKey {
  at: string;
  id: string;
}

/** The class's current students (the projection), as a condition on `g.user_id` with the class in `$1`. */
const OF_CLASS = `g.user_id = ANY(ARRAY(
  SELECT m.user_id FROM roster_members m WHERE m.class_id = $1 AND m.role = 'student'))`;

/** The SQL of the gradebook export (ADR 0042): a class's line items and its students' results, in pages. */
@Injectable()
export class GradebookRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** The quizzes (both kinds) with results from the class's students, by id. */
  async lineItems(classId: string): Promise<LineItemRow[]> {
    const rows: {
      quiz_id: string;
      title: string;
      description: string | null;
      assigned_at: Date;
      modified_at: Date;
      last_result_at: Date;
    }[] = await this.dataSource.query(
      `SELECT t.quiz_id, COALESCE(q.title, t.title) AS title, q.description,
              COALESCE(q.created_at, t.first_at) AS assigned_at,
              GREATEST(q.updated_at, t.last_at) AS modified_at, t.last_at AS last_result_at
         FROM (SELECT g.quiz_id, max(g.quiz_title) AS title, min(g.created_at) AS first_at,
                      max(g.created_at) AS last_at
                 FROM grades g WHERE ${OF_CLASS} GROUP BY g.quiz_id) t
         LEFT JOIN quizzes q ON q.id = t.quiz_id
        ORDER BY t.quiz_id`,
      [classId],
    );
    return rows.map((r) => ({
      quizId: r.quiz_id,
      title: r.title,
      description: r.description ?? '',
      assignedAt: r.assigned_at,
      modifiedAt: r.modified_at,
      lastResultAt: r.last_result_at,
    }));
  }

  /** Up to `limit` results of the class's students after `after`, oldest first (keyset: created_at, id). */
  async results(
    classId: string,
    limit: number,
    after: ResultKey | null,
  ): Promise<{ rows: ResultRow[]; last: ResultKey | null }> {
    const params: unknown[] = [classId, limit];
    let keyset = '';
    if (after) {
      params.push(after.at, after.id);
      keyset = 'AND (g.created_at, g.id) > ($3::timestamptz, $4::uuid)';
    }
    const rows: {
      id: string;
      quiz_id: string;
      user_id: string;
      score: number;
      created_at: Date;
      at: string;
    }[] = await this.dataSource.query(
      `SELECT g.id, g.quiz_id, g.user_id, g.score, g.created_at,
              to_char(g.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at
         FROM grades g WHERE ${OF_CLASS} ${keyset}
        ORDER BY g.created_at, g.id LIMIT $2`,
      params,
    );
    const tail = rows[rows.length - 1];
    return {
      rows: rows.map((r) => ({
        id: r.id,
        quizId: r.quiz_id,
        userId: r.user_id,
        score: r.score,
        createdAt: r.created_at,
      })),
      last: tail ? { at: tail.at, id: tail.id } : null,
    };
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** The SQL of a person's rows in assessment, for their right-of-access file (ADR 0021). */
@Injectable()
export class PeopleDataRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** Every result (attempt) of theirs with the answers given, oldest first. */
  gradesOf(userId: string): Promise<Record<string, unknown>[]> {
    return this.dataSource.query(
      `SELECT id, kind, quiz_id AS "quizId", quiz_title AS "quizTitle", user_name AS "userName", score,
              correct_answers AS "correctAnswers", total_questions AS "totalQuestions", passed,
              user_answers AS "userAnswers", created_at AS "createdAt"
         FROM grades WHERE user_id = $1 ORDER BY created_at, id`,
      [userId],
    );
  }

  /** The accommodations granted to them, with each quiz's title. */
  accommodationsOf(userId: string): Promise<Record<string, unknown>[]> {
    return this.dataSource.query(
      `SELECT a.quiz_id AS "quizId", q.title AS "quizTitle", a.extra_attempts AS "extraAttempts",
              a.updated_at AS "updatedAt"
         FROM accommodations a JOIN quizzes q ON q.id = a.quiz_id
        WHERE a.user_id = $1 ORDER BY a.updated_at, a.quiz_id`,
      [userId],
    );
  }

  /** The quizzes they created. */
  quizzesCreatedBy(userId: string): Promise<Record<string, unknown>[]> {
    return this.dataSource.query(
      `SELECT id, kind, title, created_by_name AS "createdByName", created_at AS "createdAt"
         FROM quizzes WHERE created_by_id = $1 ORDER BY created_at, id`,
      [userId],
    );
  }
}

import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { Subjects, type UserExportReply, type UserExportRequest } from '@district/contracts';
import { DataSource } from 'typeorm';

/**
 * assessment's part of a person's right-of-access file (ADR 0021), asked by identity over the bus
 * (`assessment.user.export.v1`): every result (attempt) with the answers given, the accommodations granted to
 * them, and the quizzes they created.
 */
@Controller()
export class UserExportResponder {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  @MessagePattern(Subjects.assessmentUserExport)
  async answer({ userId }: UserExportRequest): Promise<UserExportReply> {
    const id = userId.toLowerCase();
    const grades = (await this.dataSource.query(
      `SELECT id, kind, quiz_id AS "quizId", quiz_title AS "quizTitle", user_name AS "userName", score,
              correct_answers AS "correctAnswers", total_questions AS "totalQuestions", passed,
              user_answers AS "userAnswers", created_at AS "createdAt"
         FROM grades WHERE user_id = $1 ORDER BY created_at, id`,
      [id],
    )) as Record<string, unknown>[];
    const accommodations = (await this.dataSource.query(
      `SELECT a.quiz_id AS "quizId", q.title AS "quizTitle", a.extra_attempts AS "extraAttempts",
              a.updated_at AS "updatedAt"
         FROM accommodations a JOIN quizzes q ON q.id = a.quiz_id
        WHERE a.user_id = $1 ORDER BY a.updated_at, a.quiz_id`,
      [id],
    )) as Record<string, unknown>[];
    const quizzesCreated = (await this.dataSource.query(
      `SELECT id, kind, title, created_by_name AS "createdByName", created_at AS "createdAt"
         FROM quizzes WHERE created_by_id = $1 ORDER BY created_at, id`,
      [id],
    )) as Record<string, unknown>[];
    return { service: 'assessment', sections: { grades, accommodations, quizzesCreated } };
  }
}

import { z } from 'zod';
import { quizKindSchema } from './schemas';

const id = z.string().uuid();

/** assessment.quiz.created.v1 / assessment.quiz.updated.v1 — the quiz as it now is, without its answer key. */
export const quizChangedEventSchema = z.object({
  quiz: z.object({
    id,
    kind: quizKindSchema,
    title: z.string(),
    maxAttempts: z.number().int(),
    questionCount: z.number().int(),
    version: z.number().int(),
    createdById: id.nullable(),
  }),
});
export type QuizChangedEvent = z.infer<typeof quizChangedEventSchema>;

/** assessment.quiz.deleted.v1 */
export const quizDeletedEventSchema = z.object({ quizId: id, kind: quizKindSchema });
export type QuizDeletedEvent = z.infer<typeof quizDeletedEventSchema>;

/** assessment.grade.recorded.v1 — a marked result (not the answers). */
export const gradeRecordedEventSchema = z.object({
  grade: z.object({
    id,
    kind: quizKindSchema,
    quizId: id,
    userId: id,
    score: z.number().int(),
    passed: z.boolean(),
    correctAnswers: z.number().int(),
    totalQuestions: z.number().int(),
    createdAt: z.string(),
  }),
});
export type GradeRecordedEvent = z.infer<typeof gradeRecordedEventSchema>;

/** assessment.grade.deleted.v1 */
export const gradeDeletedEventSchema = z.object({ gradeId: id, kind: quizKindSchema });
export type GradeDeletedEvent = z.infer<typeof gradeDeletedEventSchema>;

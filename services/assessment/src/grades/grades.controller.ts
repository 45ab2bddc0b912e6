import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Inject,
  Ip,
  Post,
  Query,
  Res,
  UseInterceptors,
  type Type,
} from '@nestjs/common';
import {
  AssessmentMessages as M,
  IDEMPOTENCY_KEY_HEADER,
  gradeQuerySchema,
  gradeSubmissionSchema,
  type Grade,
  type GradeQuery,
  type GradeSubmission,
  type QuizKind,
} from '@district/contracts';
import {
  canonicalUuid,
  CurrentUser,
  IdParam,
  RequireRole,
  SignInMessage,
  ZodPipe,
  type AuthUser,
} from '@district/nest-common';
import { AnswersInvalidError, GradeNotFoundError } from '../assessment.errors';
import { AssessmentErrorsInterceptor } from '../assessment-errors.interceptor';
import { GradesService } from './grades.service';

/** An `Idempotency-Key` header: absent, or one UUID (any letter case). */
function idempotencyKey(raw: string | string[] | undefined): string | null {
  if (raw === undefined) return null;
  const key = canonicalUuid(typeof raw === 'string' ? raw.trim() : raw);
  if (!key) throw new AnswersInvalidError(M.idempotencyKeyInvalid);
  return key;
}

/**
 * `/api/quiz-grades` (audio) and `/api/text-quiz-grades` (spec §7). Everyone signed in submits and lists (a
 * student only their own results, the key as the quiz's `revealAnswers` lets them see it); the quiz's owner or an
 * administrator deletes.
 */
export function gradesController(kind: QuizKind, path: string, name: string): Type<unknown> {
  @Controller(path)
  @SignInMessage(M.gradesLoginRequired)
  @UseInterceptors(AssessmentErrorsInterceptor)
  class GradesController {
    constructor(@Inject(GradesService) private readonly grades: GradesService) {}

    @Get()
    list(
      @Query(new ZodPipe(gradeQuerySchema)) query: GradeQuery,
      @CurrentUser() user: AuthUser,
    ): Promise<Grade[]> {
      return this.grades.list(kind, user, query);
    }

    /** 201 with the marked result; a retry with the same Idempotency-Key gets the stored one with 200. */
    @Post()
    async submit(
      @Body(new ZodPipe(gradeSubmissionSchema)) body: GradeSubmission,
      @Headers(IDEMPOTENCY_KEY_HEADER) key: string | string[] | undefined,
      @CurrentUser() user: AuthUser,
      @Res({ passthrough: true }) reply: { status(code: number): unknown },
    ): Promise<Grade> {
      const { grade, created } = await this.grades.submit(kind, user, body, idempotencyKey(key));
      reply.status(created ? 201 : 200);
      return grade;
    }

    @Delete(':id')
    @HttpCode(204)
    @RequireRole(['teacher', 'admin'], M.staffOnly)
    async remove(
      @IdParam('id', () => new GradeNotFoundError()) id: string,
      @CurrentUser() actor: AuthUser,
      @Ip() ip: string,
    ): Promise<void> {
      await this.grades.remove(kind, id, {
        user: actor,
        stamp: { actorId: actor.id, actorName: actor.name, ip },
      });
    }
  }
  Object.defineProperty(GradesController, 'name', { value: name });
  return GradesController;
}

export const AudioGradesController = gradesController('audio', 'api/quiz-grades', 'AudioGradesController');
export const TextGradesController = gradesController('text', 'api/text-quiz-grades', 'TextGradesController');

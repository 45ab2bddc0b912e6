import {
  BadRequestException,
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
  NEXT_CURSOR_HEADER,
  TOTAL_COUNT_HEADER,
  gradeQuerySchema,
  gradeSubmissionSchema,
  type Grade,
  type GradeQuery,
  type GradeSubmission,
  type GradeSummary,
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
import { BAD_CURSOR_MESSAGE, decodeGradeCursor, encodeGradeCursor } from './grade-cursor';
import { GradePagesService } from './grade-pages.service';
import { GradesService } from './grades.service';

/** The filters of the summary: the list's, without paging. */
const summaryQuerySchema = gradeQuerySchema.pick({ userId: true, quizId: true, classId: true });
type SummaryQuery = Pick<GradeQuery, 'userId' | 'quizId' | 'classId'>;

interface Reply {
  status(code: number): unknown;
  header(name: string, value: string): unknown;
}

/** An `Idempotency-Key` header: absent, or one UUID (any letter case). */
function idempotencyKey(raw: string | string[] | undefined): string | null {
  if (raw === undefined) return null;
  const key = canonicalUuid(typeof raw === 'string' ? raw.trim() : raw);
  if (!key) throw new AnswersInvalidError(M.idempotencyKeyInvalid);
  return key;
}

/**
 * `/api/quiz-grades` (audio) and `/api/text-quiz-grades` (spec §7). Everyone signed in submits and lists (a
 * student only their own results, the key as the quiz's `revealAnswers` lets them see it; staff the results of the
 * students in their roster scope, ADR 0042, paged newest first); the quiz's owner or an administrator deletes a
 * result in their scope.
 */
export function gradesController(kind: QuizKind, path: string, name: string): Type<unknown> {
  @Controller(path)
  @SignInMessage(M.gradesLoginRequired)
  @UseInterceptors(AssessmentErrorsInterceptor)
  class GradesController {
    constructor(
      @Inject(GradesService) private readonly grades: GradesService,
      @Inject(GradePagesService) private readonly pages: GradePagesService,
    ) {}

    /** A page, newest first: `X-Total-Count` (the whole filter's) and `X-Next-Cursor` (absent on the last page). */
    @Get()
    async list(
      @Query(new ZodPipe(gradeQuerySchema)) query: GradeQuery,
      @CurrentUser() user: AuthUser,
      @Res({ passthrough: true }) reply: Reply,
    ): Promise<Grade[]> {
      const after = query.cursor === undefined ? undefined : decodeGradeCursor(query.cursor);
      if (after === null) throw new BadRequestException(BAD_CURSOR_MESSAGE);
      const page = await this.pages.list(kind, user, query, query.limit, after);
      reply.header(TOTAL_COUNT_HEADER, String(page.total));
      if (page.next) reply.header(NEXT_CURSOR_HEADER, encodeGradeCursor(page.next));
      return page.grades;
    }

    /** The dashboard's summary cards over the caller's whole scope with the list's filters. */
    @Get('summary')
    summary(
      @Query(new ZodPipe(summaryQuerySchema)) query: SummaryQuery,
      @CurrentUser() user: AuthUser,
    ): Promise<GradeSummary> {
      return this.pages.summary(kind, user, query);
    }

    /** 201 with the marked result; a retry with the same Idempotency-Key gets the stored one with 200. */
    @Post()
    async submit(
      @Body(new ZodPipe(gradeSubmissionSchema)) body: GradeSubmission,
      @Headers(IDEMPOTENCY_KEY_HEADER) key: string | string[] | undefined,
      @CurrentUser() user: AuthUser,
      @Res({ passthrough: true }) reply: Reply,
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
      await this.pages.assertInScope(kind, id, actor);
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

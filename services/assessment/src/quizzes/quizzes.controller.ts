import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Post,
  Put,
  UseInterceptors,
  type Type,
} from '@nestjs/common';
import {
  AssessmentMessages as M,
  accommodationInputSchema,
  quizInputSchema,
  type AccommodationInput,
  type Quiz,
  type QuizForTaking,
  type QuizInput,
  type QuizKind,
} from '@district/contracts';
import {
  CurrentUser,
  IdParam,
  RequireRole,
  SignInMessage,
  ZodPipe,
  type AuthUser,
} from '@district/nest-common';
import { AssessmentErrorsInterceptor } from '../assessment-errors.interceptor';
import { QuizNotFoundError } from '../assessment.errors';
import { viewFor } from './quiz-views';
import { QuizzesService } from './quizzes.service';

const notFound = () => new QuizNotFoundError();

/**
 * `/api/audio-quizzes` and `/api/text-quizzes` (spec §7), one class per kind from one definition. Everyone signed
 * in lists quizzes (students without the answer key); teachers and admins write them. Attempts are the grades
 * domain's (`grades/attempts.controller.ts`).
 */
export function quizzesController(kind: QuizKind, path: string, name: string): Type<unknown> {
  const input = quizInputSchema(kind);

  @Controller(path)
  @SignInMessage(M.quizzesLoginRequired)
  @UseInterceptors(AssessmentErrorsInterceptor)
  class QuizzesController {
    constructor(@Inject(QuizzesService) private readonly quizzes: QuizzesService) {}

    @Get()
    async list(@CurrentUser() user: AuthUser): Promise<(Quiz | QuizForTaking)[]> {
      return (await this.quizzes.list(kind)).map((quiz) => viewFor(user, quiz));
    }

    @Get(':id')
    async get(
      @IdParam('id', notFound) id: string,
      @CurrentUser() user: AuthUser,
    ): Promise<Quiz | QuizForTaking> {
      return viewFor(user, await this.quizzes.get(kind, id));
    }

    @Post()
    @RequireRole(['teacher', 'admin'], M.staffOnly)
    create(@Body(new ZodPipe(input)) body: QuizInput, @CurrentUser() user: AuthUser): Promise<Quiz> {
      return this.quizzes.create(kind, body, { id: user.id, name: user.name });
    }

    @Put(':id')
    @RequireRole(['teacher', 'admin'], M.staffOnly)
    update(@IdParam('id', notFound) id: string, @Body(new ZodPipe(input)) body: QuizInput): Promise<Quiz> {
      return this.quizzes.update(kind, id, body);
    }

    @Delete(':id')
    @HttpCode(204)
    @RequireRole(['teacher', 'admin'], M.staffOnly)
    async remove(@IdParam('id', notFound) id: string): Promise<void> {
      await this.quizzes.remove(kind, id);
    }

    /** A teacher's accommodation: extra attempts for one student on this quiz (0 removes them). */
    @Put(':id/accommodations/:userId')
    @HttpCode(204)
    @RequireRole(['teacher', 'admin'], M.staffOnly)
    async accommodate(
      @IdParam('id', notFound) id: string,
      @IdParam('userId', notFound) userId: string,
      @Body(new ZodPipe(accommodationInputSchema)) body: AccommodationInput,
    ): Promise<void> {
      await this.quizzes.accommodate(kind, id, userId, body.extraAttempts);
    }
  }
  Object.defineProperty(QuizzesController, 'name', { value: name });
  return QuizzesController;
}

export const AudioQuizzesController = quizzesController(
  'audio',
  'api/audio-quizzes',
  'AudioQuizzesController',
);
export const TextQuizzesController = quizzesController('text', 'api/text-quizzes', 'TextQuizzesController');

import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Ip,
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
  type AuthoredQuiz,
  type ListedQuizForTaking,
  type Quiz,
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
import { QuizzesService, type Actor } from './quizzes.service';

const notFound = () => new QuizNotFoundError();
const actor = (user: AuthUser, ip: string): Actor => ({
  user,
  stamp: { actorId: user.id, actorName: user.name, ip },
});

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

    /** Everyone's list carries the caller's own attempts on each quiz; staff also get the key and `canEdit`. */
    @Get()
    list(@CurrentUser() user: AuthUser): Promise<(AuthoredQuiz | ListedQuizForTaking)[]> {
      return this.quizzes.list(kind, user);
    }

    @Get(':id')
    get(
      @IdParam('id', notFound) id: string,
      @CurrentUser() user: AuthUser,
    ): Promise<AuthoredQuiz | ListedQuizForTaking> {
      return this.quizzes.get(kind, id, user);
    }

    @Post()
    @RequireRole(['teacher', 'admin'], M.staffOnly)
    create(@Body(new ZodPipe(input)) body: QuizInput, @CurrentUser() user: AuthUser): Promise<Quiz> {
      return this.quizzes.create(kind, body, { id: user.id, name: user.name }, user);
    }

    /** The quiz's owner or an administrator (403 'Only the teacher who created this quiz…' for other staff). */
    @Put(':id')
    @RequireRole(['teacher', 'admin'], M.staffOnly)
    update(
      @IdParam('id', notFound) id: string,
      @Body(new ZodPipe(input)) body: QuizInput,
      @CurrentUser() user: AuthUser,
      @Ip() ip: string,
    ): Promise<Quiz> {
      return this.quizzes.update(kind, id, body, actor(user, ip));
    }

    @Delete(':id')
    @HttpCode(204)
    @RequireRole(['teacher', 'admin'], M.staffOnly)
    async remove(
      @IdParam('id', notFound) id: string,
      @CurrentUser() user: AuthUser,
      @Ip() ip: string,
    ): Promise<void> {
      await this.quizzes.remove(kind, id, actor(user, ip));
    }

    /** A teacher's accommodation: extra attempts for one student on their quiz (0 removes them). */
    @Put(':id/accommodations/:userId')
    @HttpCode(204)
    @RequireRole(['teacher', 'admin'], M.staffOnly)
    async accommodate(
      @IdParam('id', notFound) id: string,
      @IdParam('userId', notFound) userId: string,
      @Body(new ZodPipe(accommodationInputSchema)) body: AccommodationInput,
      @CurrentUser() user: AuthUser,
      @Ip() ip: string,
    ): Promise<void> {
      await this.quizzes.accommodate(kind, id, userId, body.extraAttempts, actor(user, ip));
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

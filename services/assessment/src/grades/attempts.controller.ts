import { Controller, Get, HttpCode, Inject, Post, Query, UseInterceptors, type Type } from '@nestjs/common';
import {
  AssessmentMessages as M,
  gradeQuerySchema,
  type AttemptStart,
  type ItemAnalysis,
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
import { GradePagesService } from './grade-pages.service';
import { GradesService } from './grades.service';

/** `?classId=`: the analysis of one class's students (the caller manages it, else no results). */
const analysisQuerySchema = gradeQuerySchema.pick({ classId: true });

/**
 * `POST /api/{audio,text}-quizzes/{id}/attempts`: the start of an attempt (spec §5 "a quiz cannot be started once
 * past attempts reach maxAttempts"): the quiz to take without its answer key, or 409 with the spec's 'Attempt
 * Limit Reached' message and the counts in `details`. `GET …/{id}/analysis`: the quiz's item analysis.
 */
export function attemptsController(kind: QuizKind, path: string, name: string): Type<unknown> {
  @Controller(path)
  @SignInMessage(M.quizzesLoginRequired)
  @UseInterceptors(AssessmentErrorsInterceptor)
  class AttemptsController {
    constructor(
      @Inject(GradesService) private readonly grades: GradesService,
      @Inject(GradePagesService) private readonly pages: GradePagesService,
    ) {}

    @Post(':id/attempts')
    @HttpCode(200)
    start(
      @IdParam('id', () => new QuizNotFoundError()) id: string,
      @CurrentUser() user: AuthUser,
    ): Promise<AttemptStart> {
      return this.grades.startAttempt(kind, id, user);
    }

    /**
     * Item analysis of the quiz's results (facility, discrimination, option counts): teachers and admins, over the
     * students in their roster scope (ADR 0042).
     */
    @Get(':id/analysis')
    @RequireRole(['teacher', 'admin'], M.staffOnly)
    analyse(
      @IdParam('id', () => new QuizNotFoundError()) id: string,
      @Query(new ZodPipe(analysisQuerySchema)) query: { classId?: string },
      @CurrentUser() user: AuthUser,
    ): Promise<ItemAnalysis> {
      return this.pages.analyse(kind, id, user, query.classId);
    }
  }
  Object.defineProperty(AttemptsController, 'name', { value: name });
  return AttemptsController;
}

export const AudioAttemptsController = attemptsController(
  'audio',
  'api/audio-quizzes',
  'AudioAttemptsController',
);
export const TextAttemptsController = attemptsController(
  'text',
  'api/text-quizzes',
  'TextAttemptsController',
);

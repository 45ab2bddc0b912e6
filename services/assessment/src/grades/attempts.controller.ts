import { Controller, Get, HttpCode, Inject, Post, UseInterceptors, type Type } from '@nestjs/common';
import {
  AssessmentMessages as M,
  type AttemptStart,
  type ItemAnalysis,
  type QuizKind,
} from '@district/contracts';
import { CurrentUser, IdParam, RequireRole, SignInMessage, type AuthUser } from '@district/nest-common';
import { AssessmentErrorsInterceptor } from '../assessment-errors.interceptor';
import { QuizNotFoundError } from '../assessment.errors';
import { GradesService } from './grades.service';

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
    constructor(@Inject(GradesService) private readonly grades: GradesService) {}

    @Post(':id/attempts')
    @HttpCode(200)
    start(
      @IdParam('id', () => new QuizNotFoundError()) id: string,
      @CurrentUser() user: AuthUser,
    ): Promise<AttemptStart> {
      return this.grades.startAttempt(kind, id, user);
    }

    /** Item analysis of the quiz's results (facility, discrimination, option counts): teachers and admins. */
    @Get(':id/analysis')
    @RequireRole(['teacher', 'admin'], M.staffOnly)
    analyse(@IdParam('id', () => new QuizNotFoundError()) id: string): Promise<ItemAnalysis> {
      return this.grades.analyse(kind, id);
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

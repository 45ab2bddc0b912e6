import { Body, Controller, Delete, Get, HttpCode, Inject, Post, Put, UseInterceptors } from '@nestjs/common';
import {
  ClassroomMessages as M,
  lessonPlanInputSchema,
  type LessonPlan,
  type LessonPlanInput,
} from '@district/contracts';
import { CurrentUser, IdParam, RequireRole, ZodPipe, type AuthUser } from '@district/nest-common';
import { ClassroomErrorsInterceptor } from '../classroom-errors.interceptor';
import { LessonPlanNotFoundError } from '../classroom.errors';
import { LessonPlansService } from './lesson-plans.service';

const notFound = () => new LessonPlanNotFoundError();

/**
 * `/api/lesson-plans` (spec §7): teachers and admins only, every route — anyone else signed in gets the spec's
 * 'Access Restricted…' as a 403. Every teacher reads every plan; the creator or an admin edits and deletes.
 */
@Controller('api/lesson-plans')
@RequireRole(['teacher', 'admin'], M.lessonPlansRestricted)
@UseInterceptors(ClassroomErrorsInterceptor)
export class LessonPlansController {
  constructor(@Inject(LessonPlansService) private readonly plans: LessonPlansService) {}

  @Get()
  list(@CurrentUser() user: AuthUser): Promise<LessonPlan[]> {
    return this.plans.list(user);
  }

  @Post()
  create(
    @Body(new ZodPipe(lessonPlanInputSchema)) body: LessonPlanInput,
    @CurrentUser() user: AuthUser,
  ): Promise<LessonPlan> {
    return this.plans.create(user, body);
  }

  @Put(':id')
  update(
    @IdParam('id', notFound) id: string,
    @Body(new ZodPipe(lessonPlanInputSchema)) body: LessonPlanInput,
    @CurrentUser() user: AuthUser,
  ): Promise<LessonPlan> {
    return this.plans.update(user, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@IdParam('id', notFound) id: string, @CurrentUser() user: AuthUser): Promise<void> {
    await this.plans.remove(user, id);
  }
}

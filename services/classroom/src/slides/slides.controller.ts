import { Body, Controller, Delete, Get, HttpCode, Inject, Post, Put, UseInterceptors } from '@nestjs/common';
import {
  ClassroomMessages as M,
  googleSlideInputSchema,
  type GoogleSlide,
  type GoogleSlideInput,
} from '@district/contracts';
import {
  CurrentUser,
  IdParam,
  RequireRole,
  SignInMessage,
  ZodPipe,
  type AuthUser,
} from '@district/nest-common';
import { ClassroomErrorsInterceptor } from '../classroom-errors.interceptor';
import { SlideNotFoundError } from '../classroom.errors';
import { SlidesService } from './slides.service';

const notFound = () => new SlideNotFoundError();

/**
 * `/api/google-slides` (spec §7): any signed-in person views (students only public slides); teachers and admins
 * add; the creator or an admin edits and deletes (the service checks the stored row). The spec's 401 text.
 */
@Controller('api/google-slides')
@SignInMessage(M.slidesLoginRequired)
@UseInterceptors(ClassroomErrorsInterceptor)
export class SlidesController {
  constructor(@Inject(SlidesService) private readonly slides: SlidesService) {}

  @Get()
  list(@CurrentUser() user: AuthUser): Promise<GoogleSlide[]> {
    return this.slides.list(user);
  }

  @Post()
  @RequireRole(['teacher', 'admin'], M.staffOnly)
  create(
    @Body(new ZodPipe(googleSlideInputSchema)) body: GoogleSlideInput,
    @CurrentUser() user: AuthUser,
  ): Promise<GoogleSlide> {
    return this.slides.create(user, body);
  }

  @Put(':id')
  @RequireRole(['teacher', 'admin'], M.staffOnly)
  update(
    @IdParam('id', notFound) id: string,
    @Body(new ZodPipe(googleSlideInputSchema)) body: GoogleSlideInput,
    @CurrentUser() user: AuthUser,
  ): Promise<GoogleSlide> {
    return this.slides.update(user, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireRole(['teacher', 'admin'], M.staffOnly)
  async remove(@IdParam('id', notFound) id: string, @CurrentUser() user: AuthUser): Promise<void> {
    await this.slides.remove(user, id);
  }
}

import { Body, Controller, Delete, Get, HttpCode, Inject, Post, Put, UseInterceptors } from '@nestjs/common';
import {
  ClassroomMessages as M,
  audioListInputSchema,
  type AudioList,
  type AudioListInput,
} from '@district/contracts';
import { CurrentUser, IdParam, RequireRole, ZodPipe, type AuthUser } from '@district/nest-common';
import { ClassroomErrorsInterceptor } from '../classroom-errors.interceptor';
import { AudioListNotFoundError } from '../classroom.errors';
import { AudioListsService } from './audio-lists.service';

const notFound = () => new AudioListNotFoundError();

/**
 * `/api/audio-lists` (spec §7): any signed-in person lists and plays (approval not needed, as the spec's route);
 * teachers and admins create; the creator or an admin edits and deletes (the service checks the stored row).
 */
@Controller('api/audio-lists')
@UseInterceptors(ClassroomErrorsInterceptor)
export class AudioListsController {
  constructor(@Inject(AudioListsService) private readonly lists: AudioListsService) {}

  @Get()
  list(@CurrentUser() user: AuthUser): Promise<AudioList[]> {
    return this.lists.list(user);
  }

  @Post()
  @RequireRole(['teacher', 'admin'], M.staffOnly)
  create(
    @Body(new ZodPipe(audioListInputSchema)) body: AudioListInput,
    @CurrentUser() user: AuthUser,
  ): Promise<AudioList> {
    return this.lists.create(user, body);
  }

  @Put(':id')
  @RequireRole(['teacher', 'admin'], M.staffOnly)
  update(
    @IdParam('id', notFound) id: string,
    @Body(new ZodPipe(audioListInputSchema)) body: AudioListInput,
    @CurrentUser() user: AuthUser,
  ): Promise<AudioList> {
    return this.lists.update(user, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireRole(['teacher', 'admin'], M.staffOnly)
  async remove(@IdParam('id', notFound) id: string, @CurrentUser() user: AuthUser): Promise<void> {
    await this.lists.remove(user, id);
  }
}

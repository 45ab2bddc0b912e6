import { Body, Controller, Delete, Get, HttpCode, Inject, Post, Put, UseInterceptors } from '@nestjs/common';
import { categoryRequestSchema, type Category } from '@district/contracts';
import { CurrentUser, IdParam, Public, RequireAdmin, ZodPipe, type AuthUser } from '@district/nest-common';
import type { z } from 'zod';
import { ContentErrorsInterceptor } from '../content-errors.interceptor';
import { CategoryNotFoundError } from '../content.errors';
import { CategoriesService } from './categories.service';

/** Categories (spec §7): the list is public (the lesson list filters by it); changes are for admins. */
@Controller('api/categories')
@UseInterceptors(ContentErrorsInterceptor)
export class CategoriesController {
  constructor(@Inject(CategoriesService) private readonly categories: CategoriesService) {}

  @Get()
  @Public()
  list(@CurrentUser() viewer: AuthUser | undefined): Promise<Category[]> {
    return this.categories.list(viewer?.isAdmin ?? false);
  }

  @Post()
  @RequireAdmin()
  create(
    @Body(new ZodPipe(categoryRequestSchema)) body: z.infer<typeof categoryRequestSchema>,
  ): Promise<Category> {
    return this.categories.create(body);
  }

  @Put(':id')
  @RequireAdmin()
  update(
    @IdParam('id', () => new CategoryNotFoundError()) id: string,
    @Body(new ZodPipe(categoryRequestSchema)) body: z.infer<typeof categoryRequestSchema>,
  ): Promise<Category> {
    return this.categories.update(id, body);
  }

  @Delete(':id')
  @RequireAdmin()
  @HttpCode(204)
  async remove(@IdParam('id', () => new CategoryNotFoundError()) id: string): Promise<void> {
    await this.categories.remove(id);
  }
}

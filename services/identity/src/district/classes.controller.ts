import { BadRequestException, Controller, Get, Inject, Query, Res, UseInterceptors } from '@nestjs/common';
import {
  NEXT_CURSOR_HEADER,
  TOTAL_COUNT_HEADER,
  usersPageQuerySchema,
  type ClassDetail,
  type ClassSummary,
} from '@district/contracts';
import { CurrentUser, IdParam, RequireApproval, ZodPipe, type AuthUser } from '@district/nest-common';
import { z } from 'zod';
import { BAD_CURSOR_MESSAGE, decodeCursor, encodeCursor } from '../users/page-cursor';
import { ClassNotFoundError, DistrictErrorsInterceptor } from './district.errors';
import type { ClassKey } from './district.repository';
import { DistrictService } from './district.service';

/** GET /api/classes?schoolId&limit&cursor: the same words and limits as the users list's. */
export const classesQuerySchema = usersPageQuerySchema.pick({ schoolId: true, limit: true, cursor: true });
type ClassesQuery = z.infer<typeof classesQuerySchema>;

/** [id] of the previous page's last class (its sort key is read from its row). */
const classCursorSchema = z.tuple([
  z
    .string()
    .uuid()
    .transform((id) => id.toLowerCase()),
]);

/** The district's classes as people see them (ADR 0042). */
@Controller('api/classes')
@RequireApproval()
@UseInterceptors(DistrictErrorsInterceptor)
export class ClassesController {
  constructor(@Inject(DistrictService) private readonly district: DistrictService) {}

  /** The caller's own classes by school and title; administrators ask for a school's with `?schoolId=`. Paged. */
  @Get()
  async list(
    @CurrentUser() actor: AuthUser,
    @Query(new ZodPipe(classesQuerySchema)) query: ClassesQuery,
    @Res({ passthrough: true }) reply: { header(name: string, value: string): unknown },
  ): Promise<ClassSummary[]> {
    let after: ClassKey | undefined;
    if (query.cursor !== undefined) {
      const key = decodeCursor(query.cursor, classCursorSchema);
      if (!key) throw new BadRequestException(BAD_CURSOR_MESSAGE);
      after = key[0];
    }
    const page = await this.district.classes(actor, {
      ...(query.schoolId ? { schoolId: query.schoolId.toLowerCase() } : {}),
      ...(after ? { after } : {}),
      limit: query.limit,
    });
    reply.header(TOTAL_COUNT_HEADER, String(page.total));
    if (page.next) reply.header(NEXT_CURSOR_HEADER, encodeCursor([page.next]));
    return page.classes;
  }

  /** One class and its roster; a class the caller may not see, or a malformed id, is 'Class not found'. */
  @Get(':id')
  detail(
    @CurrentUser() actor: AuthUser,
    @IdParam('id', () => new ClassNotFoundError()) id: string,
  ): Promise<ClassDetail> {
    return this.district.classDetail(actor, id);
  }
}

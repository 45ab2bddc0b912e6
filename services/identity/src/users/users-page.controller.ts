import {
  BadRequestException,
  Controller,
  ForbiddenException,
  Get,
  Inject,
  Query,
  Res,
  UseGuards,
} from '@nestjs/common';
import {
  IdentityMessages,
  NEXT_CURSOR_HEADER,
  TOTAL_COUNT_HEADER,
  usersPageQuerySchema,
  type User,
  type UsersPageQuery,
} from '@district/contracts';
import { DocumentAccess, ZodPipe } from '@district/nest-common';
import { z } from 'zod';
import { BAD_CURSOR_MESSAGE, decodeCursor, encodeCursor, isRealTimestamp } from './page-cursor';
import {
  CurrentManagedSchools,
  SchoolAdministratorGuard,
  type ManagedSchools,
} from './school-administrator.guard';
import { toUser } from './user.mapper';
import { UsersRepository } from './users.repository';

/** [created_at to the microsecond, id] of the previous page's last row. */
const usersCursorSchema = z.tuple([
  z.string().refine(isRealTimestamp),
  z
    .string()
    .uuid()
    .transform((id) => id.toLowerCase()),
]);

/**
 * GET /api/users (spec §7, ADR 0042): newest first, searched and paged on the server. Without parameters it is
 * the newest 100 accounts, which hold a one-school installation's whole list. A school administrator sees only
 * the people of the schools they administer.
 */
@Controller('api')
@DocumentAccess('admin or school administrator')
@UseGuards(SchoolAdministratorGuard)
export class UsersPageController {
  constructor(@Inject(UsersRepository) private readonly users: UsersRepository) {}

  @Get('users')
  async list(
    @CurrentManagedSchools() managed: ManagedSchools,
    @Query(new ZodPipe(usersPageQuerySchema)) query: UsersPageQuery,
    @Res({ passthrough: true }) reply: { header(name: string, value: string): unknown },
  ): Promise<User[]> {
    const schoolId = query.schoolId?.toLowerCase();
    if (!managed.all && schoolId && !managed.schoolIds.includes(schoolId))
      throw new ForbiddenException(IdentityMessages.adminRequired);
    const schoolIds = schoolId ? [schoolId] : managed.all ? undefined : managed.schoolIds;
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor, usersCursorSchema);
    if (after === null) throw new BadRequestException(BAD_CURSOR_MESSAGE);

    const page = await this.users.searchPage({
      ...(query.q ? { q: query.q } : {}),
      ...(schoolIds ? { schoolIds } : {}),
      ...(query.role ? { role: query.role } : {}),
      ...(query.approved !== undefined ? { approved: query.approved } : {}),
      ...(after ? { after: { createdAt: after[0], id: after[1] } } : {}),
      limit: query.limit,
    });
    reply.header(TOTAL_COUNT_HEADER, String(page.total));
    if (page.next) reply.header(NEXT_CURSOR_HEADER, encodeCursor([page.next.createdAt, page.next.id]));
    return page.users.map(toUser);
  }
}

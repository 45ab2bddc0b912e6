import {
  createParamDecorator,
  ForbiddenException,
  Inject,
  Injectable,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { IdentityMessages } from '@district/contracts';
import type { RequestWithUser } from '@district/nest-common';
import { UsersRepository } from './users.repository';

/** What the guard found: every school (a district administrator) or the schools the caller administers. */
export type ManagedSchools = { all: true } | { all: false; schoolIds: readonly string[] };

interface RequestWithSchools extends RequestWithUser {
  managedSchools?: ManagedSchools;
}

/**
 * A district administrator (isAdmin, approved: the session's flag) or an approved school administrator, decided
 * from the stored user_roles rows before the query is even read: anyone else gets the spec's admin 403, as
 * before the district (ADR 0042).
 */
@Injectable()
export class SchoolAdministratorGuard implements CanActivate {
  constructor(@Inject(UsersRepository) private readonly users: UsersRepository) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RequestWithSchools>();
    const user = request.user;
    if (user?.isAdmin) {
      request.managedSchools = { all: true };
      return true;
    }
    const schoolIds = user?.approved ? await this.users.administeredSchoolIds(user.id) : [];
    if (schoolIds.length === 0) throw new ForbiddenException(IdentityMessages.adminRequired);
    request.managedSchools = { all: false, schoolIds };
    return true;
  }
}

/** The schools SchoolAdministratorGuard found the caller manages. */
export const CurrentManagedSchools = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): ManagedSchools =>
    ctx.switchToHttp().getRequest<RequestWithSchools>().managedSchools ?? { all: false, schoolIds: [] },
);

import {
  Body,
  Controller,
  Delete,
  HttpCode,
  Inject,
  Ip,
  Patch,
  Put,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import {
  adminFlagRequestSchema,
  approvalRequestSchema,
  resetPasswordRequestSchema,
  roleRequestSchema,
  type User,
} from '@district/contracts';
import {
  CurrentUser,
  DocumentAccess,
  IdParam,
  RequireAdmin,
  ZodPipe,
  type AuthUser,
} from '@district/nest-common';
import type { z } from 'zod';
import { IdentityErrorsInterceptor } from '../identity-errors.interceptor';
import { UserNotFoundError } from '../identity.errors';
import {
  CurrentManagedSchools,
  SchoolAdministratorGuard,
  type ManagedSchools,
} from './school-administrator.guard';
import { toUser } from './user.mapper';
import { UsersService } from './users.service';

/** A user id, canonicalised by the platform; anything but a UUID is 'User not found'. */
const UserId = () => IdParam('id', () => new UserNotFoundError());

/**
 * Admin user management (spec §6): approve or suspend, role, admin flag, password reset, delete (the list:
 * users-page.controller.ts). A school administrator may do all but the admin flag to their schools' people who are
 * not district administrators (ADR 0042); the service decides that on the locked row.
 */
@Controller('api')
@UseInterceptors(IdentityErrorsInterceptor)
export class UsersController {
  constructor(@Inject(UsersService) private readonly users: UsersService) {}

  @Patch('users/:id/approval')
  @UseGuards(SchoolAdministratorGuard)
  @DocumentAccess('admin or school administrator')
  async setApproval(
    @CurrentUser() actor: AuthUser,
    @CurrentManagedSchools() scope: ManagedSchools,
    @UserId() id: string,
    @Body(new ZodPipe(approvalRequestSchema)) body: z.infer<typeof approvalRequestSchema>,
    @Ip() ip: string,
  ): Promise<User> {
    return toUser(await this.users.setApproval(actor, id, body.approved, ip, scope));
  }

  @Patch('users/:id/role')
  @UseGuards(SchoolAdministratorGuard)
  @DocumentAccess('admin or school administrator')
  async setRole(
    @CurrentUser() actor: AuthUser,
    @CurrentManagedSchools() scope: ManagedSchools,
    @UserId() id: string,
    @Body(new ZodPipe(roleRequestSchema)) body: z.infer<typeof roleRequestSchema>,
    @Ip() ip: string,
  ): Promise<User> {
    return toUser(await this.users.setRole(actor, id, body.role, ip, scope));
  }

  /** District administrators only: a school administrator never grants or takes the admin flag. */
  @Patch('users/:id/admin')
  @RequireAdmin()
  async setAdmin(
    @CurrentUser() actor: AuthUser,
    @UserId() id: string,
    @Body(new ZodPipe(adminFlagRequestSchema)) body: z.infer<typeof adminFlagRequestSchema>,
    @Ip() ip: string,
  ): Promise<User> {
    return toUser(await this.users.setAdmin(actor, id, body.isAdmin, ip));
  }

  @Delete('users/:id')
  @HttpCode(204)
  @UseGuards(SchoolAdministratorGuard)
  @DocumentAccess('admin or school administrator')
  async remove(
    @CurrentUser() actor: AuthUser,
    @CurrentManagedSchools() scope: ManagedSchools,
    @UserId() id: string,
    @Ip() ip: string,
  ): Promise<void> {
    await this.users.remove(actor, id, ip, scope);
  }

  @Put('admin/users/:id/password')
  @UseGuards(SchoolAdministratorGuard)
  @DocumentAccess('admin or school administrator')
  async resetPassword(
    @CurrentUser() actor: AuthUser,
    @CurrentManagedSchools() scope: ManagedSchools,
    @UserId() id: string,
    @Body(new ZodPipe(resetPasswordRequestSchema)) body: z.infer<typeof resetPasswordRequestSchema>,
    @Ip() ip: string,
  ): Promise<User> {
    const by = { actorId: actor.id, actorName: actor.name, ip };
    return toUser(await this.users.resetPassword(id, body.newPassword, by, scope));
  }
}

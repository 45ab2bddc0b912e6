import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Patch,
  Put,
  UseInterceptors,
} from '@nestjs/common';
import {
  adminFlagRequestSchema,
  approvalRequestSchema,
  resetPasswordRequestSchema,
  roleRequestSchema,
  type User,
} from '@district/contracts';
import { CurrentUser, IdParam, RequireAdmin, ZodPipe, type AuthUser } from '@district/nest-common';
import type { z } from 'zod';
import { IdentityErrorsInterceptor } from '../identity-errors.interceptor';
import { UserNotFoundError } from '../identity.errors';
import { toUser } from './user.mapper';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

/** A user id, canonicalised by the platform; anything but a UUID is 'User not found'. */
const UserId = () => IdParam('id', () => new UserNotFoundError());

/** Admin user management (spec §6): approve or suspend, role, admin flag, password reset, delete. */
@Controller('api')
@RequireAdmin()
@UseInterceptors(IdentityErrorsInterceptor)
export class UsersController {
  constructor(
    @Inject(UsersService) private readonly users: UsersService,
    @Inject(UsersRepository) private readonly usersRepository: UsersRepository,
  ) {}

  @Get('users')
  async list(): Promise<User[]> {
    return (await this.usersRepository.list()).map(toUser);
  }

  @Patch('users/:id/approval')
  async setApproval(
    @CurrentUser() actor: AuthUser,
    @UserId() id: string,
    @Body(new ZodPipe(approvalRequestSchema)) body: z.infer<typeof approvalRequestSchema>,
  ): Promise<User> {
    return toUser(await this.users.setApproval(actor, id, body.approved));
  }

  @Patch('users/:id/role')
  async setRole(
    @CurrentUser() actor: AuthUser,
    @UserId() id: string,
    @Body(new ZodPipe(roleRequestSchema)) body: z.infer<typeof roleRequestSchema>,
  ): Promise<User> {
    return toUser(await this.users.setRole(actor, id, body.role));
  }

  @Patch('users/:id/admin')
  async setAdmin(
    @CurrentUser() actor: AuthUser,
    @UserId() id: string,
    @Body(new ZodPipe(adminFlagRequestSchema)) body: z.infer<typeof adminFlagRequestSchema>,
  ): Promise<User> {
    return toUser(await this.users.setAdmin(actor, id, body.isAdmin));
  }

  @Delete('users/:id')
  @HttpCode(204)
  async remove(@CurrentUser() actor: AuthUser, @UserId() id: string): Promise<void> {
    await this.users.remove(actor, id);
  }

  @Put('admin/users/:id/password')
  async resetPassword(
    @UserId() id: string,
    @Body(new ZodPipe(resetPasswordRequestSchema)) body: z.infer<typeof resetPasswordRequestSchema>,
  ): Promise<User> {
    return toUser(await this.users.resetPassword(id, body.newPassword));
  }
}

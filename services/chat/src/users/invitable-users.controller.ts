import { Controller, Get, Inject, UseInterceptors } from '@nestjs/common';
import type { InvitableUser } from '@district/contracts';
import { RequireAdmin } from '@district/nest-common';
import { ChatErrorsInterceptor } from '../chat-errors.interceptor';
import { InvitableUsersService } from './invitable-users.service';

/**
 * The chatroom screen's invite list (spec §2, §6): a sub-path of the admin's chatroom routes, so the gateway's
 * `/api/admin/chatrooms` entry brings it here. 503 with `Retry-After` when identity does not answer.
 */
@Controller('api/admin/chatrooms')
@RequireAdmin()
@UseInterceptors(ChatErrorsInterceptor)
export class InvitableUsersController {
  constructor(@Inject(InvitableUsersService) private readonly users: InvitableUsersService) {}

  @Get('invitable-users')
  list(): Promise<InvitableUser[]> {
    return this.users.list();
  }
}

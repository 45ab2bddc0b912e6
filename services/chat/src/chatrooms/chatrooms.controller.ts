import { Controller, Get, Inject, UseInterceptors } from '@nestjs/common';
import type { ChatroomSummary } from '@district/contracts';
import { CurrentUser, type AuthUser } from '@district/nest-common';
import { ChatErrorsInterceptor } from '../chat-errors.interceptor';
import { ChatroomsService } from './chatrooms.service';

/**
 * The rooms the chat screen offers (tools spec §7 `GET /api/chatrooms`). Signed in, approval not needed, like the
 * screen's own route (/listen-to-type); what each person sees is the service's rule.
 */
@Controller('api/chatrooms')
@UseInterceptors(ChatErrorsInterceptor)
export class ChatroomsController {
  constructor(@Inject(ChatroomsService) private readonly chatrooms: ChatroomsService) {}

  @Get()
  list(@CurrentUser() viewer: AuthUser): Promise<ChatroomSummary[]> {
    return this.chatrooms.listFor(viewer);
  }
}

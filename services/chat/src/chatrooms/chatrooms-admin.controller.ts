import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Ip,
  Post,
  Put,
  UseInterceptors,
} from '@nestjs/common';
import {
  type AuditStamp,
  createChatroomRequestSchema,
  updateChatroomRequestSchema,
  type Chatroom,
  type ChatroomChanges,
  type NewChatroom,
} from '@district/contracts';
import { CurrentUser, IdParam, RequireAdmin, ZodPipe, type AuthUser } from '@district/nest-common';
import { ChatErrorsInterceptor } from '../chat-errors.interceptor';
import { ChatroomNotFoundError } from '../chat.errors';
import { ChatroomsService } from './chatrooms.service';

/** Chatroom management (spec §7): administrators only. */
@Controller('api/admin/chatrooms')
@RequireAdmin()
@UseInterceptors(ChatErrorsInterceptor)
export class ChatroomsAdminController {
  constructor(@Inject(ChatroomsService) private readonly chatrooms: ChatroomsService) {}

  @Get()
  list(): Promise<Chatroom[]> {
    return this.chatrooms.listAll();
  }

  @Post()
  create(
    @Body(new ZodPipe(createChatroomRequestSchema)) body: NewChatroom,
    @CurrentUser() actor: AuthUser,
    @Ip() ip: string,
  ): Promise<Chatroom> {
    return this.chatrooms.create(body, stamp(actor, ip));
  }

  @Put(':id')
  update(
    @IdParam('id', () => new ChatroomNotFoundError()) id: string,
    @Body(new ZodPipe(updateChatroomRequestSchema)) body: ChatroomChanges,
    @CurrentUser() actor: AuthUser,
    @Ip() ip: string,
  ): Promise<Chatroom> {
    return this.chatrooms.update(id, body, stamp(actor, ip));
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(
    @IdParam('id', () => new ChatroomNotFoundError()) id: string,
    @CurrentUser() actor: AuthUser,
    @Ip() ip: string,
  ): Promise<void> {
    await this.chatrooms.remove(id, stamp(actor, ip));
  }
}

/** Who acts, from where, for the audit log (ADR 0021). */
const stamp = (actor: AuthUser, ip: string): AuditStamp => ({ actorId: actor.id, actorName: actor.name, ip });

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
  UseGuards,
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
import { CurrentUser, DocumentAccess, IdParam, ZodPipe, type AuthUser } from '@district/nest-common';
import { ChatErrorsInterceptor } from '../chat-errors.interceptor';
import { ChatroomNotFoundError } from '../chat.errors';
import { ChatroomAccess, ChatroomManagersGuard } from './chatroom-access';
import { ChatroomsService } from './chatrooms.service';

/**
 * Chatroom management (spec §7): administrators, and (issue #36) a class's teachers and its school's
 * administrators for that class's rooms — see ChatroomAccess. Everyone else gets the spec's admin 403.
 */
@Controller('api/admin/chatrooms')
@UseGuards(ChatroomManagersGuard)
@DocumentAccess('admin or class manager')
@UseInterceptors(ChatErrorsInterceptor)
export class ChatroomsAdminController {
  constructor(
    @Inject(ChatroomsService) private readonly chatrooms: ChatroomsService,
    @Inject(ChatroomAccess) private readonly access: ChatroomAccess,
  ) {}

  @Get()
  list(@CurrentUser() actor: AuthUser): Promise<Chatroom[]> {
    return this.access.list(actor);
  }

  @Post()
  async create(
    @Body(new ZodPipe(createChatroomRequestSchema)) body: NewChatroom,
    @CurrentUser() actor: AuthUser,
    @Ip() ip: string,
  ): Promise<Chatroom> {
    await this.access.checkCreate(actor, body.classId);
    return this.chatrooms.create(body, stamp(actor, ip));
  }

  @Put(':id')
  async update(
    @IdParam('id', () => new ChatroomNotFoundError()) id: string,
    @Body(new ZodPipe(updateChatroomRequestSchema)) body: ChatroomChanges,
    @CurrentUser() actor: AuthUser,
    @Ip() ip: string,
  ): Promise<Chatroom> {
    await this.access.checkChange(actor, id);
    return this.chatrooms.update(id, body, stamp(actor, ip));
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(
    @IdParam('id', () => new ChatroomNotFoundError()) id: string,
    @CurrentUser() actor: AuthUser,
    @Ip() ip: string,
  ): Promise<void> {
    await this.access.checkChange(actor, id);
    await this.chatrooms.remove(id, stamp(actor, ip));
  }
}

/** Who acts, from where, for the audit log (ADR 0021). */
const stamp = (actor: AuthUser, ip: string): AuditStamp => ({ actorId: actor.id, actorName: actor.name, ip });

import { Body, Controller, Delete, Get, HttpCode, Inject, Post, Put, UseInterceptors } from '@nestjs/common';
import {
  createChatroomRequestSchema,
  updateChatroomRequestSchema,
  type Chatroom,
  type ChatroomChanges,
  type NewChatroom,
} from '@district/contracts';
import { IdParam, RequireAdmin, ZodPipe } from '@district/nest-common';
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
  create(@Body(new ZodPipe(createChatroomRequestSchema)) body: NewChatroom): Promise<Chatroom> {
    return this.chatrooms.create(body);
  }

  @Put(':id')
  update(
    @IdParam('id', () => new ChatroomNotFoundError()) id: string,
    @Body(new ZodPipe(updateChatroomRequestSchema)) body: ChatroomChanges,
  ): Promise<Chatroom> {
    return this.chatrooms.update(id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@IdParam('id', () => new ChatroomNotFoundError()) id: string): Promise<void> {
    await this.chatrooms.remove(id);
  }
}

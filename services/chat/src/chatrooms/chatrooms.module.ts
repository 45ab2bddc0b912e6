import { Module } from '@nestjs/common';
import { AfterCommit } from './after-commit';
import { ChatroomAccess, ChatroomManagersGuard } from './chatroom-access';
import { ChatroomsAdminController } from './chatrooms-admin.controller';
import { ChatroomsController } from './chatrooms.controller';
import { ChatroomsRepository } from './chatrooms.repository';
import { ChatroomsService } from './chatrooms.service';

/** Chatrooms: the management (admins; a class's managers for its rooms) and the list people choose a room from. */
@Module({
  controllers: [ChatroomsController, ChatroomsAdminController],
  providers: [ChatroomsRepository, ChatroomsService, ChatroomAccess, ChatroomManagersGuard, AfterCommit],
  // Users (a deleted user's invitations) and the demo seed change rooms through the service, so events follow.
  exports: [ChatroomsService, ChatroomsRepository],
})
export class ChatroomsModule {}

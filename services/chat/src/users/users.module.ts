import { Module } from '@nestjs/common';
import { ChatroomsModule } from '../chatrooms/chatrooms.module';
import { InvitableUsersController } from './invitable-users.controller';
import { InvitableUsersService } from './invitable-users.service';
import { UserEventsConsumer } from './user-events.consumer';
import { UserExportResponder } from './user-export.responder';

/** People as chat needs them: the invite list (asked of identity) and identity's deletions. */
@Module({
  imports: [ChatroomsModule],
  // UserEventsConsumer handles identity's events (@EventPattern), run by the platform's bus transport;
  // UserExportResponder answers identity's right-of-access requests (@MessagePattern, ADR 0021).
  controllers: [InvitableUsersController, UserEventsConsumer, UserExportResponder],
  providers: [InvitableUsersService],
})
export class UsersModule {}

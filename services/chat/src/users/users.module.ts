import { Module } from '@nestjs/common';
import { ChatroomsModule } from '../chatrooms/chatrooms.module';
import { InvitableUsersController } from './invitable-users.controller';
import { InvitableUsersService } from './invitable-users.service';
import { UserEventsConsumer } from './user-events.consumer';

/** People as chat needs them: the invite list (asked of identity) and identity's deletions. */
@Module({
  imports: [ChatroomsModule],
  // UserEventsConsumer handles identity's events (@EventPattern), run by the platform's bus transport.
  controllers: [InvitableUsersController, UserEventsConsumer],
  providers: [InvitableUsersService],
})
export class UsersModule {}

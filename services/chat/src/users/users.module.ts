import { Module } from '@nestjs/common';
import { PeopleDataModule } from '@district/nest-common';
import { ChatroomsModule } from '../chatrooms/chatrooms.module';
import { InvitableUsersController } from './invitable-users.controller';
import { InvitableUsersService } from './invitable-users.service';
import { CHAT_PEOPLE_DATA, ChatPeopleData } from './people-data.holder';
import { PeopleDataRepository } from './people-data.repository';
import { UserEventsConsumer } from './user-events.consumer';

/** People as chat needs them: the invite list (asked of identity), identity's changes, its people's data. */
@Module({
  // The platform's audit trail and its export and erasure handlers, for the holder provided here (ADR 0036).
  imports: [ChatroomsModule, PeopleDataModule.forService('chat', CHAT_PEOPLE_DATA)],
  // UserEventsConsumer handles identity's events (@EventPattern), run by the platform's bus transport.
  controllers: [InvitableUsersController, UserEventsConsumer],
  providers: [InvitableUsersService, ChatPeopleData, PeopleDataRepository],
})
export class UsersModule {}

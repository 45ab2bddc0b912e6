import { Module } from '@nestjs/common';
import { CommentsModule } from '../comments/comments.module';
import { UserEventsConsumer } from './user-events.consumer';

/** content's copies of people, kept in step with identity's events. */
@Module({
  imports: [CommentsModule],
  // UserEventsConsumer handles identity's events (@EventPattern), run by the platform's bus transport.
  controllers: [UserEventsConsumer],
})
export class UsersModule {}

import { Module } from '@nestjs/common';
import { CommentsModule } from '../comments/comments.module';
import { UserEventsConsumer } from './user-events.consumer';
import { UserExportResponder } from './user-export.responder';

/** content's copies of people, kept in step with identity's events. */
@Module({
  imports: [CommentsModule],
  // UserEventsConsumer handles identity's events (@EventPattern), run by the platform's bus transport;
  // UserExportResponder answers identity's right-of-access requests (@MessagePattern, ADR 0021).
  controllers: [UserEventsConsumer, UserExportResponder],
})
export class UsersModule {}

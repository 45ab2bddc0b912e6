import { Module } from '@nestjs/common';
import { ChatroomsModule } from '../chatrooms/chatrooms.module';
import { ChatHub } from './chat-hub';
import { LiveGateway } from './live-gateway';

/** The live chat room: the `/ws` endpoint and the hub behind it (ADR 0018). Its settings (LIVE_CONFIG) come from ChatModule. */
@Module({
  imports: [ChatroomsModule],
  providers: [ChatHub, LiveGateway],
  exports: [ChatHub],
})
export class LiveModule {}

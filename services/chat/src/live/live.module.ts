import { Module } from '@nestjs/common';
import { PLATFORM_RUNTIME, type PlatformRuntime } from '@district/nest-common';
import { ChatroomsModule } from '../chatrooms/chatrooms.module';
import { ChatHub } from './chat-hub';
import { LiveGateway } from './live-gateway';
import { LIVE_CONFIG, loadLiveConfig } from './live.config';

/** The live chat room: the `/ws` endpoint and the hub behind it (ADR 0018). */
@Module({
  imports: [ChatroomsModule],
  providers: [
    {
      provide: LIVE_CONFIG,
      inject: [PLATFORM_RUNTIME],
      useFactory: (runtime: PlatformRuntime) => loadLiveConfig(runtime.env),
    },
    ChatHub,
    LiveGateway,
  ],
  exports: [ChatHub],
})
export class LiveModule {}

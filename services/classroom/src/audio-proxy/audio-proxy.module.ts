import { Module } from '@nestjs/common';
import { AudioProxyController } from './audio-proxy.controller';
import {
  AUDIO_PROXY_NETWORK,
  AUDIO_PROXY_NETWORK_OVERRIDE,
  inProcessNetwork,
  productionAudioProxyNetwork,
  type AudioProxyNetwork,
} from './audio-proxy.network';
import { AudioProxyService } from './audio-proxy.service';
import { AudioUpstream } from './audio-upstream';

/**
 * The audio proxy (issue #13 item 3). Its network is the production one unless a test app provides
 * AUDIO_PROXY_NETWORK_OVERRIDE (test/audio-proxy-support.ts), or the browser journeys' preload sets the in-process
 * network (audio-proxy.network.ts), to put a local server behind a cloud host's name. Its settings
 * (AUDIO_PROXY_CONFIG) come from ClassroomModule.
 */
@Module({
  controllers: [AudioProxyController],
  providers: [
    {
      provide: AUDIO_PROXY_NETWORK,
      inject: [{ token: AUDIO_PROXY_NETWORK_OVERRIDE, optional: true }],
      useFactory: (override: AudioProxyNetwork | undefined) =>
        override ?? inProcessNetwork() ?? productionAudioProxyNetwork,
    },
    AudioUpstream,
    AudioProxyService,
  ],
})
export class AudioProxyModule {}

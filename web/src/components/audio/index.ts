export {
  AudioPlayButton,
  type AudioFailure,
  type AudioPlayButtonProps,
  type AudioPlayState,
} from './audio-play-button';
export { AudioUrlTest } from './audio-url-test';
export { AUDIO_PROXY_HOSTS, AUDIO_PROXY_PATH, isCloudStorageLink, playableAudioUrl } from './audio-source';
export { AUDIO_PREVIEW_VOLUME, AUDIO_TEST_TIMEOUT_MS, AUDIO_VOLUME, AudioMessages } from './audio.constants';

import { defineConfig, envInt, type ConfigValues } from '@district/nest-common';
import { audioProxySettings } from './audio-proxy/audio-proxy.config';

/**
 * classroom's environment (services/README.md "Configuration"): one schema, read once at start by the root module
 * and provided under CLASSROOM_CONFIG (the audio proxy's part also under AUDIO_PROXY_CONFIG). An empty value is
 * unset (ADR 0038). Each key is listed with its default in the README.
 */
export const classroomConfig = defineConfig('classroom', {
  /** Items (audio lists, lesson plans, slides) one list call answers, newest first. */
  CLASSROOM_LIST_LIMIT: envInt(500, { min: 1, max: 5000 }),
  ...audioProxySettings,
});

export type ClassroomConfig = ConfigValues<typeof classroomConfig.shape>;

export const CLASSROOM_CONFIG = classroomConfig.token;

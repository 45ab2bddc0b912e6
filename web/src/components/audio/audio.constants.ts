/** Spec (classroom-tools §9): audio plays at volume 0.7; a URL test previews at 0.6. */
export const AUDIO_VOLUME = 0.7;
export const AUDIO_PREVIEW_VOLUME = 0.6;
/** How long a URL test waits for the audio to load before calling it failed. */
export const AUDIO_TEST_TIMEOUT_MS = 10_000;

/** The audio texts of the spec (classroom-tools §8). */
export const AudioMessages = {
  audioLoadFailed: 'Audio failed to load. Check the URL or try a different file.',
  audioBlocked: 'Your browser blocked audio playback. Press Play again to listen.',
  urlFailed: 'URL Failed',
  audioReady: 'Audio Ready',
} as const;

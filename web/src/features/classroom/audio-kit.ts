import { createContext, useContext, type ComponentType } from 'react';

/**
 * The audio pieces the classroom screens reuse from other features: the quizzes' play button (spec §4 "Audio play
 * button": Loading → Play → Pause → Replay, Error) and URL test ('Audio Ready' / 'URL Failed'), its cloud-storage
 * host check, and the alphabet's letters. Features never import each other (web/eslint-rules/web-boundaries.mjs),
 * so the app composes them: `app/router.tsx` builds the kit and hands it to the classroom pages.
 */
export interface AudioKit {
  PlayButton: ComponentType<{ src: string }>;
  UrlTest: ComponentType<{ url: string; label: string }>;
  isCloudStorageLink: (url: string) => boolean;
  /** The Spanish alphabet's letters with their recording (/sounds/spanish/{letter}.mp3). */
  alphabet: readonly { letter: string; src: string }[];
}

const AudioKitContext = createContext<AudioKit | null>(null);

export const AudioKitProvider = AudioKitContext.Provider;

export function useAudioKit(): AudioKit {
  const kit = useContext(AudioKitContext);
  if (!kit) throw new Error('useAudioKit must be used inside <AudioKitProvider> (app/router.tsx provides it)');
  return kit;
}

export const AUDIO_PROXY_PATH = '/api/audio-proxy';

/** The address to play: cloud-storage links go through the audio proxy (spec §7), anything else directly. */
export function playbackUrl(url: string, isCloudStorageLink: (url: string) => boolean): string {
  const trimmed = url.trim();
  return isCloudStorageLink(trimmed) ? `${AUDIO_PROXY_PATH}?url=${encodeURIComponent(trimmed)}` : trimmed;
}

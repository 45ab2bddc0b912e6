import { AUDIO_PROXY_ALLOW_LIST, isAllowedHost } from '@district/contracts/classroom';

/**
 * The address to play for an audio link (classroom-tools §7): links on the audio proxy's hosts go through
 * GET /api/audio-proxy?url={encoded link} (services/classroom, signed-in users only); every other link, and every
 * relative site path such as /sounds/quiz/hola.mp3, is played directly.
 */
export const AUDIO_PROXY_PATH = '/api/audio-proxy';

/** The proxy's allow-list, from the contracts the server's proxy uses too (exact names and `*.suffix` entries). */
export const AUDIO_PROXY_HOSTS: readonly string[] = AUDIO_PROXY_ALLOW_LIST;

/** Whether an absolute http(s) link is on a host the audio proxy serves. Relative paths and other schemes are not. */
export function isCloudStorageLink(url: string): boolean {
  const trimmed = url.trim();
  if (!/^https?:\/\//i.test(trimmed)) return false;
  try {
    const host = new URL(trimmed).hostname.toLowerCase().replace(/\.+$/, '');
    return isAllowedHost(host, AUDIO_PROXY_ALLOW_LIST);
  } catch {
    return false;
  }
}

/** `/api/audio-proxy?url=<encoded link>` for a cloud-storage link, the (trimmed) link itself otherwise. */
export function playableAudioUrl(url: string): string {
  const trimmed = url.trim();
  return isCloudStorageLink(trimmed) ? `${AUDIO_PROXY_PATH}?url=${encodeURIComponent(trimmed)}` : trimmed;
}

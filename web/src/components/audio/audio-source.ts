/**
 * The address to play for an audio link (classroom-tools §7): links on the audio proxy's hosts go through
 * GET /api/audio-proxy?url={encoded link} (services/classroom, signed-in users only); every other link, and every
 * relative site path such as /sounds/quiz/hola.mp3, is played directly.
 */
export const AUDIO_PROXY_PATH = '/api/audio-proxy';

/**
 * The proxy's allow-list: a copy of `AUDIO_PROXY_ALLOW_LIST` in services/classroom/src/audio-proxy/host-rules.ts
 * (@district/contracts does not carry it; `audio-source.test.ts` fails when the two differ). An entry is an exact
 * host name, or `*.suffix` for any name under the suffix (not the suffix itself).
 */
export const AUDIO_PROXY_HOSTS: readonly string[] = Object.freeze([
  'drive.google.com',
  'docs.google.com',
  'drive.usercontent.google.com',
  '*.googleusercontent.com',
  'dropbox.com',
  'www.dropbox.com',
  'dl.dropbox.com',
  '*.dropboxusercontent.com',
  'onedrive.live.com',
  'api.onedrive.com',
  '1drv.ms',
  '*.files.1drv.com',
  '*.sharepoint.com',
  'icloud.com',
  'www.icloud.com',
  '*.icloud-content.com',
]);

function onProxyList(host: string): boolean {
  return AUDIO_PROXY_HOSTS.some((entry) => {
    if (!entry.startsWith('*.')) return host === entry;
    const suffix = entry.slice(1);
    return host.endsWith(suffix) && host.length > suffix.length;
  });
}

/** Whether an absolute http(s) link is on a host the audio proxy serves. Relative paths and other schemes are not. */
export function isCloudStorageLink(url: string): boolean {
  const trimmed = url.trim();
  if (!/^https?:\/\//i.test(trimmed)) return false;
  try {
    const host = new URL(trimmed).hostname.toLowerCase().replace(/\.+$/, '');
    return onProxyList(host);
  } catch {
    return false;
  }
}

/** `/api/audio-proxy?url=<encoded link>` for a cloud-storage link, the (trimmed) link itself otherwise. */
export function playableAudioUrl(url: string): string {
  const trimmed = url.trim();
  return isCloudStorageLink(trimmed) ? `${AUDIO_PROXY_PATH}?url=${encodeURIComponent(trimmed)}` : trimmed;
}

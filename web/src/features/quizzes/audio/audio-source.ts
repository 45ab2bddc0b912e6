/**
 * The address to play for a question's audio link. The spec routes links on cloud-storage hosts (Google Drive,
 * Dropbox, OneDrive, iCloud) through GET /api/audio-proxy?url=…, which is not built yet: until it is, every link is
 * played directly (see the feature README). `isCloudStorageLink` is where the proxy will plug in.
 */
const CLOUD_STORAGE_HOSTS = [/(^|\.)drive\.google\.com$/, /(^|\.)docs\.google\.com$/, /(^|\.)dropbox\.com$/, /(^|\.)dropboxusercontent\.com$/, /(^|\.)1drv\.ms$/, /(^|\.)onedrive\.live\.com$/, /(^|\.)icloud\.com$/];

export function isCloudStorageLink(url: string): boolean {
  try {
    const host = new URL(url).hostname.toLowerCase();
    return CLOUD_STORAGE_HOSTS.some((re) => re.test(host));
  } catch {
    return false;
  }
}

export function playableAudioUrl(url: string): string {
  return url;
}

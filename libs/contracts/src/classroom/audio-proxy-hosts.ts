/**
 * The cloud-storage hosts the audio proxy fetches from (issue #13, shared by the proxy and the web app, which sends links on these hosts through it: Google Drive/Docs and googleusercontent,
 * Dropbox, OneDrive/SharePoint/1drv.ms, iCloud), and the download hosts their share links redirect to. An entry
 * is an exact name, or `*.suffix` for any name under it (not the suffix itself). Names only: no address is ever
 * on the list.
 */
export const AUDIO_PROXY_ALLOW_LIST: readonly string[] = Object.freeze([
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

/** Whether a canonical host name (lower case, no trailing dot) is on the list. */
export function isAllowedHost(host: string, allowList: readonly string[]): boolean {
  return allowList.some((entry) => {
    if (!entry.startsWith('*.')) return host === entry;
    const suffix = entry.slice(1);
    return host.endsWith(suffix) && host.length > suffix.length;
  });
}

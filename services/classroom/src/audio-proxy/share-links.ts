/**
 * Share links of the allow-listed hosts rewritten to their direct-download form, so the proxy fetches the file
 * rather than the host's preview page. Pure, and idempotent: a link already in download form comes back as is.
 *
 * - Google Drive: `/file/d/{id}/view` (or `/preview`, `/edit`, bare), `/open?id={id}` and `/uc?id={id}` →
 *   `https://drive.google.com/uc?export=download&id={id}`.
 * - Dropbox: `?dl=0` (or no `dl`) → `dl=1`, other parameters (the `rlkey` of `/scl/fi/` links) kept.
 * - OneDrive: a `1drv.ms` short link or an `onedrive.live.com` share → the shares API's content URL
 *   (`https://api.onedrive.com/v1.0/shares/u!{base64url of the link}/root/content`); `onedrive.live.com`
 *   `redir`/`embed` links with a `resid` → `/download`. SharePoint: `download=1` added.
 */
export function toDirectDownload(url: URL): URL {
  const host = url.hostname.toLowerCase().replace(/\.+$/, '');
  if (host === 'drive.google.com' || host === 'docs.google.com') return googleDrive(url);
  if (host === 'dropbox.com' || host === 'www.dropbox.com') return dropbox(url);
  if (host === '1drv.ms') return oneDriveShare(url);
  if (host === 'onedrive.live.com') return oneDriveLive(url);
  if (host.endsWith('.sharepoint.com')) return sharePoint(url);
  return new URL(url.href);
}

const DRIVE_ID = /^[A-Za-z0-9_-]+$/;

function googleDrive(url: URL): URL {
  const fileId = /^\/file\/d\/([^/]+)(?:\/(?:view|preview|edit)?)?\/?$/.exec(url.pathname)?.[1];
  const queryId = url.pathname === '/open' || url.pathname === '/uc' ? url.searchParams.get('id') : null;
  const id = fileId ?? queryId;
  if (id === null || id === undefined || !DRIVE_ID.test(id)) return new URL(url.href);
  const direct = new URL('https://drive.google.com/uc');
  direct.protocol = url.protocol;
  direct.port = url.port;
  direct.searchParams.set('export', 'download');
  direct.searchParams.set('id', id);
  return direct;
}

function dropbox(url: URL): URL {
  const direct = new URL(url.href);
  if (direct.searchParams.get('raw') === '1') return direct;
  direct.searchParams.set('dl', '1');
  return direct;
}

/** The OneDrive shares API's encoding of a sharing URL: `u!` + unpadded base64url. */
export function oneDriveShareId(shareUrl: string): string {
  return `u!${Buffer.from(shareUrl, 'utf8').toString('base64url')}`;
}

function oneDriveShare(url: URL): URL {
  const direct = new URL(`https://api.onedrive.com/v1.0/shares/${oneDriveShareId(url.href)}/root/content`);
  direct.protocol = url.protocol;
  direct.port = url.port;
  return direct;
}

function oneDriveLive(url: URL): URL {
  const path = url.pathname.replace(/\/+$/, '');
  if ((path === '/redir' || path === '/embed') && url.searchParams.has('resid')) {
    const direct = new URL(url.href);
    direct.pathname = '/download';
    return direct;
  }
  if (path === '/download') return new URL(url.href);
  // Other share forms (`/?cid=…&id=…`, `/personal/…`) go through the shares API like a short link.
  if (url.search !== '' || path !== '') return oneDriveShare(url);
  return new URL(url.href);
}

function sharePoint(url: URL): URL {
  const direct = new URL(url.href);
  direct.searchParams.set('download', '1');
  return direct;
}

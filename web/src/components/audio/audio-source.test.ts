// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { AUDIO_PROXY_ALLOW_LIST } from '@district/contracts/classroom';
import { AUDIO_PROXY_HOSTS, AUDIO_PROXY_PATH, isCloudStorageLink, playableAudioUrl } from './audio-source';

const proxied = (link: string) => `/api/audio-proxy?url=${encodeURIComponent(link)}`;

describe('playableAudioUrl (classroom-tools §7: cloud-storage links through GET /api/audio-proxy?url=)', () => {
  it.each([
    ['Google Drive', 'https://drive.google.com/file/d/1AbC-_x9/view?usp=sharing'],
    ['Google Drive (open)', 'https://drive.google.com/open?id=1AbC'],
    ['Google Docs', 'https://docs.google.com/uc?export=download&id=1AbC'],
    ['Google Drive downloads', 'https://drive.usercontent.google.com/download?id=1AbC&export=download'],
    ['googleusercontent', 'https://doc-0k-9s-docs.googleusercontent.com/docs/securesc/abc/hola.mp3'],
    ['Dropbox', 'https://www.dropbox.com/s/abc123/hola.mp3?dl=0'],
    ['Dropbox (bare host)', 'https://dropbox.com/scl/fi/xyz/hola.mp3?rlkey=k&dl=0'],
    ['Dropbox (dl host)', 'https://dl.dropbox.com/s/abc123/hola.mp3'],
    ['dropboxusercontent', 'https://uc1234.dl.dropboxusercontent.com/cd/0/get/hola.mp3'],
    ['OneDrive short link', 'https://1drv.ms/u/s!AbCdEf'],
    ['OneDrive live', 'https://onedrive.live.com/redir?resid=ABC!123&authkey=!xyz'],
    ['OneDrive API', 'https://api.onedrive.com/v1.0/shares/u!aHR0cHM/root/content'],
    ['OneDrive files', 'https://public.am.files.1drv.com/y4m/hola.mp3'],
    ['SharePoint', 'https://contoso-my.sharepoint.com/:u:/g/personal/t_contoso_com/EabC?e=1'],
    ['iCloud', 'https://www.icloud.com/iclouddrive/0abc#hola'],
    ['iCloud (bare host)', 'https://icloud.com/iclouddrive/0abc'],
    ['iCloud content', 'https://cvws.icloud-content.com/B/abc/hola.mp3'],
  ])('%s: %s goes through the proxy', (_family, link) => {
    expect(isCloudStorageLink(link)).toBe(true);
    expect(playableAudioUrl(link)).toBe(proxied(link));
  });

  it('encodes the whole link as one query value (?, &, #, spaces and non-ASCII survive)', () => {
    const link = 'https://www.dropbox.com/scl/fi/a b/Canción ñ.mp3?rlkey=k&dl=0#t=5';
    const url = playableAudioUrl(link);
    expect(url.startsWith(`${AUDIO_PROXY_PATH}?url=`)).toBe(true);
    expect(url).toBe(
      '/api/audio-proxy?url=https%3A%2F%2Fwww.dropbox.com%2Fscl%2Ffi%2Fa%20b%2FCanci%C3%B3n%20%C3%B1.mp3%3Frlkey%3Dk%26dl%3D0%23t%3D5',
    );
    expect(new URL(url, 'https://site.test').searchParams.get('url')).toBe(link);
    expect([...new URL(url, 'https://site.test').searchParams.keys()]).toEqual(['url']);
  });

  it('judges the host, not the spelling: upper case, http, a port and a trailing dot; surrounding spaces trimmed', () => {
    expect(playableAudioUrl('HTTPS://Drive.Google.COM/file/d/x/view')).toBe(
      proxied('HTTPS://Drive.Google.COM/file/d/x/view'),
    );
    expect(playableAudioUrl('http://www.dropbox.com/s/x/a.mp3')).toBe(
      proxied('http://www.dropbox.com/s/x/a.mp3'),
    );
    expect(playableAudioUrl('https://drive.google.com./uc?id=x')).toBe(
      proxied('https://drive.google.com./uc?id=x'),
    );
    expect(playableAudioUrl('  https://1drv.ms/u/s!x  ')).toBe(proxied('https://1drv.ms/u/s!x'));
  });

  it.each([
    'https://cdn.example.test/hola.mp3',
    'https://example.com/drive.google.com/hola.mp3',
    'https://drive.google.com.evil.test/hola.mp3',
    'https://evildropbox.com/s/x/a.mp3',
    'https://photos.dropbox.com/s/x/a.mp3',
    'https://googleusercontent.com/a.mp3',
    'https://files.1drv.com/a.mp3',
    'https://sharepoint.com/a.mp3',
    'https://myicloud.com/a.mp3',
    'https://drive.google.com@cdn.example.test/a.mp3',
  ])('plays %s directly (not a proxy host)', (link) => {
    expect(isCloudStorageLink(link)).toBe(false);
    expect(playableAudioUrl(link)).toBe(link);
  });

  it.each([
    '/sounds/quiz/hola.mp3',
    '/sounds/spanish/%C3%B1.mp3',
    'sounds/quiz/hola.mp3',
    '//drive.google.com/uc?id=x',
    'ftp://drive.google.com/a.mp3',
    'data:audio/mpeg;base64,AAAA',
    'not a link',
    '',
  ])('plays the site path or non-http link %j directly', (link) => {
    expect(isCloudStorageLink(link)).toBe(false);
    expect(playableAudioUrl(link)).toBe(link);
  });

  it('is idempotent: an address already through the proxy is played as is', () => {
    const once = playableAudioUrl('https://drive.google.com/file/d/x/view');
    expect(playableAudioUrl(once)).toBe(once);
  });

  it("uses the server's allow-list itself (one list in the contracts), with every cloud family on it", () => {
    expect(AUDIO_PROXY_HOSTS).toBe(AUDIO_PROXY_ALLOW_LIST);
    for (const host of [
      'drive.google.com',
      '*.googleusercontent.com',
      '*.dropboxusercontent.com',
      '1drv.ms',
      '*.sharepoint.com',
      'www.icloud.com',
    ])
      expect(AUDIO_PROXY_HOSTS).toContain(host);
  });
});

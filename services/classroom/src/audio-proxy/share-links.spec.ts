import fc from 'fast-check';
import { oneDriveShareId, toDirectDownload } from './share-links';
import { AUDIO_PROXY_ALLOW_LIST, isAllowedHost } from './host-rules';

const driveId = fc.stringMatching(/^[A-Za-z0-9_-]{1,60}$/);
const token = fc.stringMatching(/^[A-Za-z0-9]{1,20}$/);
const rewrite = (link: string) => toDirectDownload(new URL(link)).href;

describe('toDirectDownload', () => {
  it('rewrites the spec’s share forms', () => {
    expect(rewrite('https://drive.google.com/file/d/1AbC_d-9/view?usp=sharing')).toBe(
      'https://drive.google.com/uc?export=download&id=1AbC_d-9',
    );
    expect(rewrite('https://drive.google.com/open?id=XyZ')).toBe(
      'https://drive.google.com/uc?export=download&id=XyZ',
    );
    expect(rewrite('https://www.dropbox.com/s/abc123/song.mp3?dl=0')).toBe(
      'https://www.dropbox.com/s/abc123/song.mp3?dl=1',
    );
    expect(rewrite('https://www.dropbox.com/scl/fi/x1/a.mp3?rlkey=k9&dl=0')).toBe(
      'https://www.dropbox.com/scl/fi/x1/a.mp3?rlkey=k9&dl=1',
    );
    expect(rewrite('https://1drv.ms/u/s!AkX')).toBe(
      `https://api.onedrive.com/v1.0/shares/${oneDriveShareId('https://1drv.ms/u/s!AkX')}/root/content`,
    );
    expect(rewrite('https://onedrive.live.com/redir?resid=ABC!123&authkey=!k')).toBe(
      'https://onedrive.live.com/download?resid=ABC!123&authkey=!k',
    );
    expect(rewrite('https://district.sharepoint.com/:u:/g/personal/a/Eb?e=x')).toBe(
      'https://district.sharepoint.com/:u:/g/personal/a/Eb?e=x&download=1',
    );
    expect(rewrite('https://cdn.example.org/a.mp3')).toBe('https://cdn.example.org/a.mp3');
  });

  it('turns every Drive file link into its download link, with the same id', () => {
    fc.assert(
      fc.property(
        driveId,
        fc.constantFrom('/view', '/preview', '/edit', '', '/'),
        fc.constantFrom('', '?usp=sharing', '?usp=drive_link'),
        (id, tail, query) => {
          const direct = toDirectDownload(new URL(`https://drive.google.com/file/d/${id}${tail}${query}`));
          expect(direct.pathname).toBe('/uc');
          expect(direct.searchParams.get('export')).toBe('download');
          expect(direct.searchParams.get('id')).toBe(id);
        },
      ),
    );
  });

  it('makes every Dropbox link a download and keeps its other parameters', () => {
    fc.assert(
      fc.property(token, token, fc.constantFrom('0', '1', null), (path, rlkey, dl) => {
        const link = new URL(`https://www.dropbox.com/scl/fi/${path}/a.mp3`);
        link.searchParams.set('rlkey', rlkey);
        if (dl !== null) link.searchParams.set('dl', dl);
        const direct = toDirectDownload(link);
        expect(direct.searchParams.get('dl')).toBe('1');
        expect(direct.searchParams.get('rlkey')).toBe(rlkey);
        expect(direct.pathname).toBe(link.pathname);
      }),
    );
  });

  it('encodes OneDrive short links so the shares API decodes them back', () => {
    fc.assert(
      fc.property(token, (id) => {
        const link = `https://1drv.ms/u/s!${id}`;
        const direct = toDirectDownload(new URL(link));
        const encoded = direct.pathname.split('/')[3]!;
        expect(encoded.startsWith('u!')).toBe(true);
        expect(encoded).not.toMatch(/[+/=]/);
        expect(Buffer.from(encoded.slice(2), 'base64url').toString()).toBe(link);
      }),
    );
  });

  it('is idempotent and never leaves the allow-list', () => {
    const links = fc.oneof(
      driveId.map((id) => `https://drive.google.com/file/d/${id}/view`),
      token.map((t) => `https://www.dropbox.com/s/${t}/a.mp3?dl=0`),
      token.map((t) => `https://1drv.ms/u/s!${t}`),
      token.map((t) => `https://onedrive.live.com/embed?resid=${t}&authkey=!x`),
      token.map((t) => `https://onedrive.live.com/?cid=${t}&id=${t}`),
      token.map((t) => `https://${t.toLowerCase()}.sharepoint.com/:u:/g/${t}`),
    );
    fc.assert(
      fc.property(links, (link) => {
        const once = toDirectDownload(new URL(link));
        expect(toDirectDownload(once).href).toBe(once.href);
        expect(isAllowedHost(once.hostname, AUDIO_PROXY_ALLOW_LIST)).toBe(true);
      }),
    );
  });

  it('leaves links it does not know as they are', () => {
    fc.assert(
      fc.property(fc.webUrl(), (link) => expect(rewrite(link)).toBe(new URL(link).href)),
      { numRuns: 200 },
    );
  });
});

describe('isAllowedHost', () => {
  it('takes exact names and the subdomains of a wildcard, nothing else', () => {
    const list = AUDIO_PROXY_ALLOW_LIST;
    expect(isAllowedHost('drive.google.com', list)).toBe(true);
    expect(isAllowedHost('lh3.googleusercontent.com', list)).toBe(true);
    expect(isAllowedHost('googleusercontent.com', list)).toBe(false);
    expect(isAllowedHost('evilgoogleusercontent.com', list)).toBe(false);
    expect(isAllowedHost('drive.google.com.evil.test', list)).toBe(false);
    expect(isAllowedHost('google.com', list)).toBe(false);
    fc.assert(
      fc.property(fc.domain(), (host) => {
        const allowed = isAllowedHost(host, list);
        const expected = list.some((e) => (e.startsWith('*.') ? host.endsWith(e.slice(1)) : host === e));
        expect(allowed).toBe(expected);
      }),
    );
  });
});

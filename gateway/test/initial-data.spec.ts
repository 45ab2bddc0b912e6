import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { PageInitialData, PageLookup, PagePlugin } from '@district/nest-common';
import { rawRequest as request } from '@district/nest-common/testing';
import { INITIAL_DATA_ID, injectInitialData, jsonForScript, renderPlainContent } from '../src/page-meta';
import { startFakeService, type FakeService } from './support/fake-service';
import { startGateway, type Harness } from './support/gateway-harness';
import { BUILT_INDEX as INDEX } from './support/test-pages';

/** Every way a value could end the script element, open a comment, or break a JavaScript string. */
const HOSTILE = `</script><script>alert(1)</script><!-- <script> & "quotes" 'single' \u2028\u2029 </SCRIPT >`;

/** The embedded element's text: from its opening tag to the first `</script` (where a browser ends it). */
function embeddedJson(html: string): string {
  const open = `<script type="application/json" id="${INITIAL_DATA_ID}">`;
  const start = html.indexOf(open);
  expect(start).toBeGreaterThan(-1);
  const from = start + open.length;
  return html.slice(from, html.toLowerCase().indexOf('</script', from));
}

function noscriptOf(html: string): string {
  const start = html.indexOf('<noscript>');
  expect(start).toBeGreaterThan(-1);
  return html.slice(start + '<noscript>'.length, html.toLowerCase().indexOf('</noscript', start));
}

describe('first-screen data in the page (issue #15)', () => {
  it('embeds JSON no value can break out of, and JSON.parse gives back exactly the value', () => {
    const value = { page: 'post', title: HOSTILE, nested: [{ body: `<p>${HOSTILE}</p>` }], n: 1, ok: true };
    const json = jsonForScript(value);
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual(value);
    const html = injectInitialData(INDEX, { data: value, text: { heading: HOSTILE } });
    expect(JSON.parse(embeddedJson(html))).toEqual(value);
    // Only the app's own script and the data element: nothing the value carried became a script.
    expect(html.match(/<script/gi)).toHaveLength(2);
    expect(html.match(/<\/script/gi)).toHaveLength(2);
    expect(html).not.toContain('<!--');
  });

  it('writes the plain copy escaped, with same-site links only', () => {
    const plain = renderPlainContent({
      heading: HOSTILE,
      paragraphs: [`<img src=x onerror=alert(1)>${HOSTILE}`],
      links: [
        { href: '/blog/los-colores', title: `<b>${HOSTILE}</b>`, summary: '"><script>alert(2)</script>' },
        { href: 'javascript:alert(1)', title: 'Script link' },
        { href: '//evil.example/x', title: 'Other site' },
        { href: '/blog/a" onmouseover="alert(1)', title: 'Quote in path' },
      ],
    });
    const inner = noscriptOf(plain);
    const tags = [...inner.matchAll(/<\/?([a-z0-9]+)/gi)].map((m) => m[1]!.toLowerCase());
    expect(new Set(tags)).toEqual(new Set(['main', 'h1', 'p', 'ul', 'li', 'h2', 'a']));
    expect([...inner.matchAll(/href="([^"]*)"/g)].map((m) => m[1])).toEqual(['/blog/los-colores']);
    expect(inner).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(inner).toContain('Script link');
    // The only element with an attribute is the one same-site link: `onerror=` and the like stayed text.
    expect(inner.match(/<[a-z0-9]+\s[^>]*>/gi)).toEqual(['<a href="/blog/los-colores">']);
  });

  describe('through the gateway', () => {
    let workDir: string;
    let content: FakeService;
    let harness: Harness;
    let lookups: PageLookup;
    const initial: PageInitialData = {
      data: { page: 'home', limit: 6, posts: [{ slug: 'los-colores', title: HOSTILE }] },
      text: { heading: 'Latest Lessons', links: [{ href: '/blog/los-colores', title: HOSTILE }] },
    };
    const plugin: PagePlugin = {
      match: (pathname) =>
        pathname === '/' || pathname === '/gone' || pathname === '/odd' ? pathname : undefined,
      async lookup(key, fetch) {
        await fetch('/api/posts/public?limit=6', { fresh: false });
        if (key === '/gone') return { kind: 'missing' };
        if (key === '/odd') return { kind: 'unavailable' };
        return lookups;
      },
    };

    beforeAll(async () => {
      workDir = await mkdtemp(path.join(tmpdir(), 'gateway-initial-'));
      await mkdir(path.join(workDir, 'dist'));
      await writeFile(path.join(workDir, 'dist', 'index.html'), INDEX);
      content = await startFakeService('content');
      content.override = (_req, res) => {
        res.setHeader('content-type', 'application/json');
        res.setHeader('x-total-count', '1');
        res.end('[]');
        return true;
      };
      harness = await startGateway({
        upstreams: { content: [content.url] },
        staticDir: path.join(workDir, 'dist'),
        pagePlugins: [plugin],
      });
    });

    afterAll(async () => {
      await harness.close();
      await content.kill();
      await rm(workDir, { recursive: true, force: true });
    });

    it("serves home with the data and plain copy, index.html's own head kept", async () => {
      lookups = { kind: 'found', initial };
      const res = await request(harness.base, '/');
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(JSON.parse(embeddedJson(res.text))).toEqual(initial.data);
      expect(res.text).toContain('<title>District Learning</title>');
      expect(res.text).toContain('<div id="root"></div>');
      expect(noscriptOf(res.text)).toContain('<a href="/blog/los-colores">&lt;/script&gt;');
      expect(res.text.match(/<script/gi)).toHaveLength(2);
    });

    it('sends the same bytes and ETag with or without a session cookie, and forwards no cookie to the service', async () => {
      lookups = { kind: 'found', initial };
      const before = content.requests.length;
      const anonymous = await request(harness.base, '/');
      const signedIn = await request(harness.base, '/', {
        headers: { cookie: 'session=secret-session-token; other=1', authorization: 'Bearer abc' },
      });
      expect(signedIn.text).toBe(anonymous.text);
      expect(signedIn.headers.etag).toBe(anonymous.headers.etag);
      const seen = content.requests.slice(before);
      expect(seen.map((r) => r.url)).toEqual(['/api/posts/public?limit=6', '/api/posts/public?limit=6']);
      for (const r of seen) {
        expect(r.headers.cookie).toBeUndefined();
        expect(r.headers.authorization).toBeUndefined();
        // A list lookup lets content answer from its public-list cache.
        expect(r.headers['cache-control']).toBeUndefined();
      }
    });

    it('answers 304 to a revalidation and a new ETag when the data changes', async () => {
      lookups = { kind: 'found', initial };
      const first = await request(harness.base, '/');
      const etag = String(first.headers.etag);
      expect((await request(harness.base, '/', { headers: { 'if-none-match': etag } })).status).toBe(304);
      lookups = { kind: 'found', initial: { ...initial, data: { page: 'home', limit: 6, posts: [] } } };
      const changed = await request(harness.base, '/', { headers: { 'if-none-match': etag } });
      expect(changed.status).toBe(200);
      expect(JSON.parse(embeddedJson(changed.text))).toEqual({ page: 'home', limit: 6, posts: [] });
    });

    it('compresses the page for a browser that accepts it, with its own ETag, and revalidates it', async () => {
      lookups = { kind: 'found', initial: { ...initial, text: { heading: 'x'.repeat(4000) } } };
      const plain = await request(harness.base, '/');
      for (const [encoding, decode] of [
        ['br', brotliDecompressSync],
        ['gzip', gunzipSync],
      ] as const) {
        const res = await request(harness.base, '/', { headers: { 'accept-encoding': encoding } });
        expect(res.headers['content-encoding']).toBe(encoding);
        expect(res.headers.vary).toBe('Accept-Encoding');
        expect(decode(res.body).toString('utf8')).toBe(plain.text);
        expect(res.body.length).toBeLessThan(plain.body.length / 3);
        const etag = String(res.headers.etag);
        expect(etag).not.toBe(plain.headers.etag);
        const again = await request(harness.base, '/', {
          headers: { 'accept-encoding': encoding, 'if-none-match': etag },
        });
        expect(again.status).toBe(304);
      }
      // The plain answer's ETag does not validate a compressed copy, nor the other way round.
      const mixed = await request(harness.base, '/', {
        headers: { 'accept-encoding': 'gzip', 'if-none-match': String(plain.headers.etag) },
      });
      expect(mixed.status).toBe(200);
    });

    it('embeds nothing for a missing page (404, noindex) or when the owner cannot say (the plain app)', async () => {
      const gone = await request(harness.base, '/gone');
      expect(gone.status).toBe(404);
      expect(gone.text).not.toContain(INITIAL_DATA_ID);
      expect(gone.text).not.toContain('<noscript>');
      const odd = await request(harness.base, '/odd');
      expect([odd.status, odd.text]).toEqual([200, INDEX]);
    });
  });
});

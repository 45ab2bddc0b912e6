import { POST_HTML_POLICY } from '@district/contracts';
import sanitizeHtml from 'sanitize-html';
import { ALLOWED_IFRAME_HOSTS, sanitizePostHtml } from './html-sanitizer';

/** The post sanitiser does what the shared policy says (the web editor reads the same policy). */
describe('post sanitiser, built from POST_HTML_POLICY', () => {
  const frame = (host: string, path: string) => `https://${host}${path}abc`;

  it('keeps every element of the policy, and only those', () => {
    for (const tag of POST_HTML_POLICY.tags.filter((t) => t !== 'iframe')) {
      expect(sanitizePostHtml(`<${tag}>x</${tag}>`)).toMatch(new RegExp(`^<${tag}[ />]`));
    }
    for (const tag of ['font', 'center', 'details', 'picture', 'canvas']) {
      expect(sanitizePostHtml(`<${tag}>x</${tag}>`)).toBe('x');
    }
  });

  it('keeps every attribute of the policy on its element, and no other', () => {
    for (const [tag, names] of Object.entries(POST_HTML_POLICY.attributes)) {
      if (tag === '*' || tag === 'iframe') continue;
      for (const name of [...names, ...(POST_HTML_POLICY.attributes['*'] ?? [])]) {
        // Links keep a target of _self or _blank only (see transformTags).
        const value = POST_HTML_POLICY.urlAttributes.includes(name)
          ? 'https://a.example/x'
          : name === 'target'
            ? '_self'
            : 'v';
        expect(sanitizePostHtml(`<${tag} ${name}="${value}">x</${tag}>`)).toContain(`${name}="${value}"`);
      }
      expect(sanitizePostHtml(`<${tag} data-x="v" id="v">x</${tag}>`)).not.toMatch(/data-x|id=/);
    }
  });

  it('drops id and name everywhere, and class unless it names a code block language', () => {
    for (const tag of POST_HTML_POLICY.tags.filter(
      (t) => !['iframe', 'br', 'hr', 'img', 'wbr', 'col'].includes(t),
    )) {
      const out = sanitizePostHtml(`<${tag} id="x" name="y" class="fixed inset-0 z-50">x</${tag}>`);
      expect({ tag, out }).toEqual({ tag, out: expect.not.stringMatching(/ (id|name|class)=/) });
    }
    expect(sanitizePostHtml('<a href="/a" name="currentUser">x</a>')).toBe('<a href="/a">x</a>');
    expect(sanitizePostHtml('<img src="/a.png" name="body" alt="a">')).toBe('<img src="/a.png" alt="a" />');
    // What the rich-text editor writes for a code block with a language survives; other classes beside it do not.
    expect(sanitizePostHtml('<pre><code class="language-js">x</code></pre>')).toBe(
      '<pre><code class="language-js">x</code></pre>',
    );
    expect(sanitizePostHtml('<pre><code class="language-c++ fixed inset-0">x</code></pre>')).toBe(
      '<pre><code class="language-c++">x</code></pre>',
    );
    for (const cls of ['fixed', 'language-', 'language-JS', 'xlanguage-js', 'language-a"b'])
      expect(sanitizePostHtml(`<code class='${cls}'>x</code>`)).toBe('<code>x</code>');
    expect(sanitizePostHtml('<p class="language-js">x</p>')).toBe('<p>x</p>');
  });

  it('checks every URL attribute against the schemes of its element', () => {
    for (const [tag, names] of Object.entries(POST_HTML_POLICY.attributes)) {
      if (tag === 'iframe') continue;
      const schemes = POST_HTML_POLICY.schemesByTag[tag] ?? POST_HTML_POLICY.schemes;
      for (const name of names.filter((n) => POST_HTML_POLICY.urlAttributes.includes(n))) {
        for (const scheme of ['http', 'https', 'mailto', 'tel', 'ftp', 'javascript', 'data']) {
          const value = scheme.startsWith('http') ? `${scheme}://a.example/x` : `${scheme}:x`;
          const kept = sanitizePostHtml(`<${tag} ${name}="${value}">x</${tag}>`).includes(name);
          expect({ tag, name, scheme, kept }).toEqual({ tag, name, scheme, kept: schemes.includes(scheme) });
        }
        expect(sanitizePostHtml(`<${tag} ${name}="//a.example/x">x</${tag}>`).includes(name)).toBe(
          POST_HTML_POLICY.allowProtocolRelative,
        );
      }
    }
  });

  it('keeps frames from the policy hosts only, and sets the policy frame attributes on them', () => {
    expect(ALLOWED_IFRAME_HOSTS).toEqual(POST_HTML_POLICY.iframe.hosts.map((h) => h.host));
    for (const { host, pathPrefix } of POST_HTML_POLICY.iframe.hosts) {
      const kept = sanitizePostHtml(
        `<iframe src="${frame(host, pathPrefix)}" sandbox="" loading="eager"></iframe>`,
      );
      for (const [name, value] of Object.entries(POST_HTML_POLICY.iframe.setAttributes)) {
        expect(kept).toContain(`${name}="${value}"`);
      }
      expect(sanitizePostHtml(`<iframe src="${frame(host, '/elsewhere/')}"></iframe>`)).toBe('');
      expect(sanitizePostHtml(`<iframe src="${frame(`${host}.evil.example`, pathPrefix)}"></iframe>`)).toBe(
        '',
      );
    }
  });

  it('drops the policy raw-text elements with their text, and at least what sanitize-html drops by default', () => {
    for (const tag of POST_HTML_POLICY.droppedWithText) {
      expect(sanitizePostHtml(`<p>a</p><${tag}>secret</${tag}>`)).toBe('<p>a</p>');
    }
    // Should a sanitize-html upgrade drop more elements with their text (as it did for <xmp>), the policy must too.
    const candidates = [
      ...'script style textarea option optgroup select xmp noscript noembed noframes plaintext'.split(' '),
      ...'listing title template iframe object embed svg math head frameset'.split(' '),
    ];
    for (const tag of candidates) {
      if (sanitizeHtml(`<${tag}>secret</${tag}>`, { allowedTags: [] }) === '') {
        expect(POST_HTML_POLICY.droppedWithText).toContain(tag);
      }
    }
  });
});

import { isAllowedIframeSrc, POST_HTML_POLICY } from './html-policy';

/**
 * The lines the post allow-list must never cross. A change that fails here loosens what posts can carry into every
 * reader's page: make it on purpose, with this file changed in the same commit and the reason given there.
 */

const policy = POST_HTML_POLICY;
const allAttributes = Object.entries(policy.attributes).flatMap(([tag, names]) =>
  names.map((name) => ({ tag, name })),
);

/** Attributes browsers (or sanitize-html) read as a URL. */
const URL_VALUED = [
  ...'href src cite action formaction data xlink:href poster background ping longdesc usemap'.split(' '),
  ...'codebase classid archive profile manifest itemid dynsrc lowsrc srcset imagesrcset srcdoc'.split(' '),
];

/** Schemes a post may link to at all; script-running ones (javascript:, vbscript:, data:, blob:) never. */
const SAFE_SCHEMES = ['http', 'https', 'mailto', 'tel'];

/** Elements that run script, load plugins, change the page around them, or take input. */
const NEVER_TAGS = [
  ...'script style link meta base title html head body template slot portal'.split(' '),
  ...'object embed applet param frame frameset noframes noembed noscript xmp plaintext listing'.split(' '),
  ...'svg math form input button select option textarea dialog'.split(' '),
];

describe('the post HTML policy', () => {
  it('cannot be changed at run time', () => {
    expect(Object.isFrozen(policy)).toBe(true);
    expect(Object.isFrozen(policy.tags)).toBe(true);
    expect(Object.isFrozen(policy.attributes.iframe)).toBe(true);
    expect(Object.isFrozen(policy.iframe.hosts[0])).toBe(true);
    expect(Object.isFrozen(policy.iframe.setAttributes)).toBe(true);
    expect(Object.isFrozen(policy.classes)).toBe(true);
    expect(Object.values(policy.classes).every((patterns) => Object.isFrozen(patterns))).toBe(true);
    expect(() => (policy.tags as string[]).push('script')).toThrow(TypeError);
  });

  it('keeps no element that can run script or take input', () => {
    expect(policy.tags.filter((tag) => NEVER_TAGS.includes(tag))).toEqual([]);
    expect(policy.tags.every((tag) => /^[a-z][a-z0-9]*$/.test(tag))).toBe(true);
  });

  it('names attributes and schemes only for elements it keeps', () => {
    const named = [...Object.keys(policy.attributes), ...Object.keys(policy.schemesByTag)];
    expect(named.filter((tag) => tag !== '*' && !policy.tags.includes(tag))).toEqual([]);
  });

  it('keeps no event handler, style or inline document on any element', () => {
    const bad = allAttributes.filter(
      ({ name }) =>
        /^on/i.test(name) ||
        ['style', 'srcdoc', 'srcset', 'imagesrcset', 'formaction', 'action', 'is'].includes(name),
    );
    expect(bad).toEqual([]);
    expect(policy.attributes['*']).not.toContain('id');
  });

  it("keeps no id or name (they clobber the page's globals) and no free class (it borrows the site's styles)", () => {
    // class only through `classes`, where each value must match an explicit pattern.
    const bad = allAttributes.filter(({ name }) => ['id', 'name', 'class', 'form', 'slot'].includes(name));
    expect(bad).toEqual([]);
  });

  it('keeps class names only on named elements, each matching an anchored pattern for code languages', () => {
    for (const [tag, patterns] of Object.entries(policy.classes)) {
      expect(policy.tags).toContain(tag);
      expect(tag).not.toBe('*');
      expect(patterns.length).toBeGreaterThan(0);
      for (const pattern of patterns) {
        expect(pattern).toBeInstanceOf(RegExp);
        expect(pattern.source).toMatch(/^\^.*\$$/);
        expect(pattern.flags).toBe('');
      }
    }
    const kept = (tag: string, name: string) => (policy.classes[tag] ?? []).some((p) => p.test(name));
    expect(kept('code', 'language-js')).toBe(true);
    expect(kept('code', 'language-c++')).toBe(true);
    // The site's own utility classes (Tailwind) and anything not a code language, on any element.
    const siteClasses = [
      'fixed',
      'inset-0',
      'z-50',
      'hidden',
      'sr-only',
      'absolute',
      'bg-white',
      'language-',
    ];
    const odd = ['language-js x', 'xlanguage-js', 'language-JS', 'language-a"b', 'language-a<b'];
    for (const tag of [...policy.tags, '*'])
      for (const name of [...siteClasses, ...odd])
        expect({ tag, name, kept: kept(tag, name) }).toEqual({ tag, name, kept: false });
  });

  it('checks the scheme of every URL attribute it keeps', () => {
    const unchecked = allAttributes.filter(
      ({ name }) => URL_VALUED.includes(name) && !policy.urlAttributes.includes(name),
    );
    expect(unchecked).toEqual([]);
    // Every element with a source says which schemes it loads from, rather than falling back to the link list.
    const sourced = Object.entries(policy.attributes)
      .filter(([, names]) => names.includes('src'))
      .map(([tag]) => tag);
    expect(sourced.filter((tag) => !policy.schemesByTag[tag])).toEqual([]);
  });

  it('allows only web, mail and phone links, web images, and https media and frames', () => {
    expect(policy.schemes.filter((s) => !SAFE_SCHEMES.includes(s))).toEqual([]);
    for (const [tag, schemes] of Object.entries(policy.schemesByTag)) {
      const allowed = tag === 'img' ? ['http', 'https'] : ['https'];
      expect({ tag, loose: schemes.filter((s) => !allowed.includes(s)) }).toEqual({ tag, loose: [] });
    }
    const every = [...policy.schemes, ...Object.values(policy.schemesByTag).flat()];
    for (const scheme of ['javascript', 'vbscript', 'data', 'blob', 'file'])
      expect(every).not.toContain(scheme);
    expect(policy.allowProtocolRelative).toBe(false);
  });

  it('drops scripts, styles and raw-text elements with their content', () => {
    for (const tag of ['script', 'style', 'textarea', 'option', 'xmp'])
      expect(policy.droppedWithText).toContain(tag);
    expect(policy.droppedWithText.filter((tag) => policy.tags.includes(tag))).toEqual([]);
  });
});

describe('frames', () => {
  const { hosts, setAttributes } = policy.iframe;

  it('come over https only', () => {
    expect(policy.tags).toContain('iframe');
    expect(policy.schemesByTag.iframe).toEqual(['https']);
  });

  it('come from named hosts, each with its own embed path', () => {
    expect(hosts.length).toBeGreaterThan(0);
    expect(new Set(hosts.map((h) => h.host)).size).toBe(hosts.length);
    for (const { host, pathPrefix } of hosts) {
      // A plain host name: no wildcard, port, credentials or path.
      expect(host).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
      // A real path below the root, such as '/embed/': never '/' or '' (which would let the whole site in).
      expect(pathPrefix).toMatch(/^(\/[a-z0-9-]+)+\/$/);
    }
  });

  it('are always sandboxed, without the right to navigate the page, and send no full referrer', () => {
    const sandbox = (setAttributes.sandbox ?? '').split(/\s+/).filter(Boolean);
    expect(sandbox.length).toBeGreaterThan(0);
    const known = ['allow-scripts', 'allow-same-origin', 'allow-popups', 'allow-presentation'];
    expect(sandbox.filter((token) => !known.includes(token))).toEqual([]);
    expect(['no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin']).toContain(
      setAttributes.referrerpolicy,
    );
    // sanitize-html sets these before it filters attributes: each must be an attribute frames may keep.
    for (const name of Object.keys(setAttributes)) expect(policy.attributes.iframe).toContain(name);
  });

  it('are kept only from an allowed host, under its path, over https and without credentials', () => {
    for (const { host, pathPrefix } of hosts) {
      expect(isAllowedIframeSrc(`https://${host}${pathPrefix}abc`)).toBe(true);
      expect(isAllowedIframeSrc(`http://${host}${pathPrefix}abc`)).toBe(false);
      expect(isAllowedIframeSrc(`https://${host}/`)).toBe(false);
      expect(isAllowedIframeSrc(`https://${host}/other${pathPrefix}abc`)).toBe(false);
      expect(isAllowedIframeSrc(`https://${host}${pathPrefix}../../other`)).toBe(false);
      expect(isAllowedIframeSrc(`https://user:pw@${host}${pathPrefix}abc`)).toBe(false);
      expect(isAllowedIframeSrc(`https://${host}.evil.example${pathPrefix}abc`)).toBe(false);
      expect(isAllowedIframeSrc(`https://evil-${host}${pathPrefix}abc`)).toBe(false);
      expect(isAllowedIframeSrc(`//${host}${pathPrefix}abc`)).toBe(false);
      expect(isAllowedIframeSrc(`${pathPrefix}abc`)).toBe(false);
    }
    for (const src of [
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      '',
      null,
      undefined,
    ]) {
      expect(isAllowedIframeSrc(src)).toBe(false);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { analyzeSeo, parseKeywords } from './seo-analysis';
import { findMatches, imagesWithoutAlt, insertAt, isSafeLinkUrl, linkHtml } from './post-editor/html-tools';

const okFields = {
  seoTitle: 't'.repeat(30),
  metaDescription: 'd'.repeat(120),
  focusKeyword: 'ser',
  metaKeywords: ['ser'],
};
const byId = (fields: typeof okFields) => Object.fromEntries(analyzeSeo(fields).map((c) => [c.id, c]));

describe('SEO analysis (spec sections 5 and 9)', () => {
  it('passes at the range edges and fails just outside them', () => {
    expect(analyzeSeo(okFields).every((c) => c.ok)).toBe(true);
    expect(
      byId({ ...okFields, seoTitle: 't'.repeat(60), metaDescription: 'd'.repeat(160) }).seoTitle!.ok,
    ).toBe(true);
    expect(byId({ ...okFields, seoTitle: 't'.repeat(29) }).seoTitle).toMatchObject({
      ok: false,
      detail: 'Too short (29 characters)',
    });
    expect(byId({ ...okFields, seoTitle: 't'.repeat(61) }).seoTitle).toMatchObject({
      ok: false,
      detail: 'Too long (61 characters)',
    });
    expect(byId({ ...okFields, metaDescription: 'd'.repeat(119) }).metaDescription!.ok).toBe(false);
    expect(byId({ ...okFields, metaDescription: 'd'.repeat(161) }).metaDescription!.ok).toBe(false);
  });

  it('needs a focus keyword and at least one meta keyword', () => {
    expect(byId({ ...okFields, focusKeyword: '  ' }).focusKeyword!.ok).toBe(false);
    expect(byId({ ...okFields, metaKeywords: [' ', ''] }).metaKeywords!.ok).toBe(false);
  });

  it('reads comma-separated keywords, trimmed, without empties', () => {
    expect(parseKeywords(' ser, estar ,, verbos ,')).toEqual(['ser', 'estar', 'verbos']);
  });
});

describe('HTML content tools', () => {
  it('finds every occurrence, case-insensitively, without overlaps', () => {
    expect(findMatches('<p>Ser</p><p>ser</p>', 'SER')).toEqual([3, 13]);
    expect(findMatches('aaaa', 'aa')).toEqual([0, 2]);
    expect(findMatches('abc', '')).toEqual([]);
  });

  it('builds escaped links and refuses script URLs', () => {
    expect(linkHtml('https://example.org/?a=1&b="2"', '<Docs>')).toBe(
      '<a href="https://example.org/?a=1&amp;b=&quot;2&quot;">&lt;Docs&gt;</a>',
    );
    expect(linkHtml('/blog/ser', '')).toBe('<a href="/blog/ser">/blog/ser</a>');
    expect(isSafeLinkUrl('javascript:alert(1)')).toBe(false);
    expect(isSafeLinkUrl('data:text/html,x')).toBe(false);
    expect(isSafeLinkUrl('//evil.example')).toBe(false);
    expect(isSafeLinkUrl('https://example.org')).toBe(true);
    expect(isSafeLinkUrl('/blog')).toBe(true);
  });

  it('inserts at the caret or replaces the selection', () => {
    expect(insertAt('hello world', 6, 11, 'there')).toEqual({ text: 'hello there', caret: 11 });
  });

  it('counts images without alt text', () => {
    expect(
      imagesWithoutAlt('<img src="/a.png"><img src="/b.png" alt=" "><img src="/c.png" alt="A cat">'),
    ).toBe(2);
    expect(imagesWithoutAlt('<p>no images</p>')).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { isSafeImageUrl } from './html-tools';
import { isAllowedIframeSrc, lostInConversion } from './post-html-rules';
import { richTextLosses, throughRichText } from './rich-text-extensions';

describe('frames the server keeps (mirror of the content service sanitiser)', () => {
  it('accepts Google Slides and YouTube embeds over https only', () => {
    expect(isAllowedIframeSrc('https://docs.google.com/presentation/d/abc/embed')).toBe(true);
    expect(isAllowedIframeSrc('https://www.youtube.com/embed/xyz')).toBe(true);
    expect(isAllowedIframeSrc('https://youtube.com/embed/xyz')).toBe(true);
    expect(isAllowedIframeSrc('https://www.youtube-nocookie.com/embed/xyz')).toBe(true);
    expect(isAllowedIframeSrc('http://www.youtube.com/embed/xyz')).toBe(false);
    expect(isAllowedIframeSrc('https://www.youtube.com/watch?v=xyz')).toBe(false);
    expect(isAllowedIframeSrc('https://docs.google.com/document/d/abc')).toBe(false);
    expect(isAllowedIframeSrc('https://user:pw@www.youtube.com/embed/xyz')).toBe(false);
    expect(isAllowedIframeSrc('https://evil.example.com/embed/xyz')).toBe(false);
    expect(isAllowedIframeSrc('//www.youtube.com/embed/xyz')).toBe(false);
    expect(isAllowedIframeSrc(null)).toBe(false);
  });
});

describe('image sources', () => {
  it('takes http(s) and site paths only', () => {
    expect(isSafeImageUrl('https://example.com/a.png')).toBe(true);
    expect(isSafeImageUrl(' /uploads/a.png ')).toBe(true);
    expect(isSafeImageUrl('//evil.example.com/a.png')).toBe(false);
    expect(isSafeImageUrl('javascript:alert(1)')).toBe(false);
    expect(isSafeImageUrl('data:image/png;base64,AAAA')).toBe(false);
    expect(isSafeImageUrl('')).toBe(false);
  });
});

describe('what a switch to rich text would lose', () => {
  it('counts elements and attributes the server keeps, by their meaning', () => {
    expect(
      lostInConversion(
        '<p><b>a</b> <i>b</i> <del>c</del></p>',
        '<p><strong>a</strong> <em>b</em> <s>c</s></p>',
      ),
    ).toEqual([]);
    expect(lostInConversion('<p title="intro">a</p>', '<p>a</p>')).toEqual(['<p title="intro">']);
    expect(
      lostInConversion('<pre><code class="language-js">a</code></pre>', '<pre><code>a</code></pre>'),
    ).toEqual(['<code class="language-js">']);
    expect(lostInConversion('<table><tr><td>a</td></tr></table>', '<p>a</p>')).toEqual([
      '<table>',
      '<tbody>',
      '<tr>',
      '<td>',
    ]);
    expect(lostInConversion('<p>a b</p>', '<p>a</p>')).toEqual(['some text']);
  });

  it('does not count what saving drops anyway', () => {
    expect(
      lostInConversion(
        '<p onclick="x()" style="color:red">a</p><script>alert(1)</script><iframe src="https://evil.example.com/x"></iframe>',
        '<p>a</p>',
      ),
    ).toEqual([]);
    expect(
      lostInConversion(
        '<p><a href="javascript:alert(1)">a</a> <a href="java\tscript:x">b</a></p>',
        '<p>a b</p>',
      ),
    ).toEqual([]);
    expect(
      lostInConversion(
        '<div><span>a</span></div><ol start="1"><li>b</li></ol>',
        '<p>a</p><ol><li><p>b</p></li></ol>',
      ),
    ).toEqual([]);
    // The server keeps no name and no class but a code block's language (POST_HTML_POLICY.classes).
    expect(
      lostInConversion('<p class="intro"><a href="/x" name="top">a</a></p>', '<p><a href="/x">a</a></p>'),
    ).toEqual([]);
    expect(
      lostInConversion(
        '<pre><code class="language-js fixed">a</code></pre>',
        '<pre><code class="language-js">a</code></pre>',
      ),
    ).toEqual([]);
  });

  it('finds nothing lost in what the editor itself writes, and names what it cannot represent', () => {
    const lesson =
      '<h2>About</h2><p>Intro with <a href="/blog/ser">a link</a>, <code>code</code> and <img src="/uploads/a.png" alt="A"></p>' +
      '<ol start="3"><li>three</li></ol><blockquote><p>q</p></blockquote><pre><code>x = 1\n  y</code></pre><hr>' +
      '<iframe src="https://www.youtube.com/embed/x" sandbox="allow-scripts allow-same-origin allow-popups allow-presentation" loading="lazy" referrerpolicy="strict-origin-when-cross-origin" allowfullscreen></iframe>';
    expect(richTextLosses(lesson)).toEqual([]);
    expect(throughRichText(throughRichText(lesson))).toBe(throughRichText(lesson));
    expect(richTextLosses('<figure><img src="/a.png" alt="a"><figcaption>cap</figcaption></figure>')).toEqual(
      ['<figure>', '<figcaption>'],
    );
    expect(richTextLosses('<p><a href="tel:123">call</a></p>')).toEqual(['<a href="tel:123">']);
    expect(richTextLosses('<pre><code class="language-js">let x = 1;</code></pre>')).toEqual([]);
    expect(richTextLosses('')).toEqual([]);
  });

  it('reads frames only from allowed hosts, keeping every attribute as written', () => {
    const allowed =
      '<iframe src="https://docs.google.com/presentation/d/abc/embed" width="960" height="569" allowfullscreen="true" frameborder="0"></iframe>';
    expect(throughRichText(`${allowed}<iframe src="https://evil.example.com/embed/x"></iframe>`)).toBe(
      allowed,
    );
  });
});

import fc from 'fast-check';
import { htmlToParagraphs, htmlToText } from './html-text';

describe('htmlToText: block boundaries are word boundaries (issue #34 item 12)', () => {
  it('keeps the words of neighbouring paragraphs apart', () => {
    expect(htmlToText('<p>¿Qué más? in Colombia.</p><p>In Spain, two kisses.</p>')).toBe(
      '¿Qué más? in Colombia. In Spain, two kisses.',
    );
  });

  it('keeps table cells and rows apart', () => {
    const table =
      '<table><thead><tr><th>Los colores</th><th>English</th></tr></thead>' +
      '<tbody><tr><td>Rojo</td><td>red</td></tr><tr><td><strong>Azul</strong></td><td>blue</td></tr></tbody></table>';
    expect(htmlToText(table)).toBe('Los colores English Rojo red Azul blue');
  });

  it.each([
    [
      '<h2>Permanent or temporary?</h2><p>Spanish has two verbs.</p>',
      'Permanent or temporary? Spanish has two verbs.',
    ],
    ['<ul><li>Ser: origen</li><li>Estar: lugar</li></ul>', 'Ser: origen Estar: lugar'],
    ['<ol><li><p>uno</p></li><li><p>dos</p></li></ol>', 'uno dos'],
    ['línea uno<br>línea dos<br/>tres', 'línea uno línea dos tres'],
    ['<p>Useful words:</p><blockquote>¿Cuánto cuesta?</blockquote>', 'Useful words: ¿Cuánto cuesta?'],
    ['<div>a</div><div>b</div><section>c</section><pre>d</pre>', 'a b c d'],
    ['<dl><dt>el pan</dt><dd>bread</dd></dl>', 'el pan bread'],
    [
      '<figure><img src="/a.png" alt="x"><figcaption>Una ofrenda</figcaption></figure>after',
      'Una ofrenda after',
    ],
    ['a<hr>b', 'a b'],
  ])('%s', (html, text) => {
    expect(htmlToText(html)).toBe(text);
  });

  it('does not split words at inline elements', () => {
    expect(
      htmlToText('<p>Use <strong>ser</strong> for <em>iden</em>tity and <a href="/x">origin</a>.</p>'),
    ).toBe('Use ser for identity and origin.');
    expect(htmlToText('<p>H<sub>2</sub>O, x<sup>2</sup></p>')).toBe('H2O, x2');
  });

  it('decodes entities and collapses whitespace (nbsp included)', () => {
    expect(
      htmlToText('<p>caf&eacute; &amp; t&#233;&nbsp;&nbsp;con&#x20;leche</p>\n\n<p>  &lt;b&gt; </p>'),
    ).toBe('café & té con leche <b>');
  });

  it('drops text no reader sees', () => {
    expect(
      htmlToText('<p>a</p><script>alert(1)</script><style>p{}</style><template>t</template><p>b</p>'),
    ).toBe('a b');
    expect(htmlToText('<textarea>x</textarea><select><option>o</option></select>y')).toBe('y');
  });

  it('answers plain text unchanged (trimmed and collapsed), and nothing for no text', () => {
    expect(htmlToText('  Hola,   mundo ')).toBe('Hola, mundo');
    expect(htmlToText('')).toBe('');
    expect(htmlToText('<p> </p><br><table><tr><td></td></tr></table>')).toBe('');
  });

  it('never leaves a doubled, leading or trailing space, and keeps every word of the text', () => {
    const word = fc.stringMatching(/^[a-zñé]{1,8}$/);
    const tag = fc.constantFrom('p', 'div', 'li', 'td', 'th', 'h3', 'blockquote', 'span', 'strong', 'em');
    fc.assert(
      fc.property(fc.array(fc.tuple(tag, word), { minLength: 1, maxLength: 12 }), (parts) => {
        const html = parts.map(([t, w]) => `<${t}>${w}</${t}>`).join('');
        const text = htmlToText(html);
        expect(text).not.toMatch(/^\s|\s$|\s\s/);
        // Only inline elements may join two words.
        expect(text.replace(/ /g, '')).toBe(parts.map(([, w]) => w).join(''));
      }),
    );
  });
});

describe('htmlToParagraphs', () => {
  it('answers one paragraph per block, with the cells of a row on one line', () => {
    expect(
      htmlToParagraphs(
        '<h2>Título</h2><p>Uno <em>dos</em></p><table><tr><th>Los colores</th><th>Colors</th></tr><tr><td>Rojo</td><td>Red</td></tr></table><ul><li>a</li><li>b</li></ul>',
      ),
    ).toEqual(['Título', 'Uno dos', 'Los colores Colors', 'Rojo Red', 'a', 'b']);
  });
});

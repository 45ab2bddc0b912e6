import fc from 'fast-check';
import { jsonb } from './jsonb';

describe('jsonb', () => {
  it('replaces lone surrogates, keeps pairs and everything else', () => {
    expect(JSON.parse(jsonb({ a: ['x\ud800', '\udc00y', '😀', 'ñ'] }))).toEqual({
      a: ['x\ufffd', '\ufffdy', '😀', 'ñ'],
    });
  });

  it('always gives JSON whose strings are well-formed UTF-16', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' })), (strings) => {
        const text = jsonb(strings);
        expect(text).not.toMatch(/\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f])/i);
        expect(Buffer.from(text, 'utf8').toString('utf8')).toBe(text);
        expect(JSON.parse(text)).toHaveLength(strings.length);
      }),
    );
  });
});

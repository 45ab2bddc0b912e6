import fc from 'fast-check';
import {
  GOOGLE_SLIDES_HOST,
  SLIDE_EMBED_DELAY_MS,
  deriveEmbedUrl,
  googleSlideInputSchema,
  isGoogleSlidesUrl,
  splitTags,
} from '@district/contracts';

const ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.split('');
const slideId = fc
  .array(fc.constantFrom(...ID_CHARS), { minLength: 1, maxLength: 60 })
  .map((c) => c.join(''));
/** What may follow the id in a link: nothing, or a path, query and fragment as Google writes them. */
const tail = fc.constantFrom(
  '',
  '/',
  '/edit',
  '/edit?usp=sharing',
  '/edit#slide=id.p',
  '/view',
  '/present?slide=2',
  '/copy',
);
const pubTail = fc.constantFrom('', '?start=false&loop=false&delayms=3000', '?start=true', '#slide=2', '/');
const scheme = fc.constantFrom('https://', 'http://', 'HTTPS://');
const host = fc.constantFrom('docs.google.com', 'DOCS.google.COM');
const PARAMS = `start=false&loop=false&delayms=${SLIDE_EMBED_DELAY_MS}`;

describe('deriveEmbedUrl (spec §5)', () => {
  it('turns a normal presentation link into its embed link, whatever follows the id', () => {
    fc.assert(
      fc.property(scheme, host, slideId, tail, (s, h, id, t) => {
        fc.pre(id !== 'e');
        expect(deriveEmbedUrl(`${s}${h}/presentation/d/${id}${t}`)).toBe(
          `https://${GOOGLE_SLIDES_HOST}/presentation/d/${id}/embed?${PARAMS}`,
        );
      }),
    );
  });

  it('turns a published link (/d/e/{id}/pub) into the published embed link', () => {
    fc.assert(
      fc.property(scheme, host, slideId, pubTail, (s, h, id, t) => {
        expect(deriveEmbedUrl(`${s}${h}/presentation/d/e/${id}/pub${t}`)).toBe(
          `https://${GOOGLE_SLIDES_HOST}/presentation/d/e/${id}/embed?${PARAMS}`,
        );
      }),
    );
  });

  it('is stable on a normal link: its embed link derives to itself', () => {
    fc.assert(
      fc.property(slideId, tail, (id, t) => {
        fc.pre(id !== 'e');
        const embed = deriveEmbedUrl(`https://docs.google.com/presentation/d/${id}${t}`);
        expect(deriveEmbedUrl(embed)).toBe(embed);
      }),
    );
  });

  it('answers only Google Slides embed links on docs.google.com, with only id characters, whatever it is given', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.webUrl(),
          fc.string().map((s) => `https://docs.google.com/presentation/d/${s}`),
        ),
        (raw) => {
          const embed = deriveEmbedUrl(raw);
          if (embed === '') return;
          expect(embed).toMatch(
            /^https:\/\/docs\.google\.com\/presentation\/d\/(e\/)?[A-Za-z0-9_-]+\/embed\?start=false&loop=false&delayms=3000$/,
          );
          expect(isGoogleSlidesUrl(raw)).toBe(true);
        },
      ),
    );
  });

  it.each([
    ['another host', 'https://docs.google.com.evil.example/presentation/d/abc/edit'],
    ['a look-alike host', 'https://docs-google.com/presentation/d/abc/edit'],
    ['user info before the host', 'https://docs.google.com@evil.example/presentation/d/abc/edit'],
    ['user info on the real host', 'https://me:pw@docs.google.com/presentation/d/abc/edit'],
    ['a port', 'https://docs.google.com:8443/presentation/d/abc/edit'],
    ['javascript:', 'javascript:alert(1)//docs.google.com/presentation/d/abc'],
    ['a data URL', 'data:text/html,docs.google.com/presentation/d/abc'],
    ['a document, not a presentation', 'https://docs.google.com/document/d/abc/edit'],
    ['the path only in the query', 'https://docs.google.com/?next=/presentation/d/abc'],
    ['an id with other characters', 'https://docs.google.com/presentation/d/ab%3Cc/edit'],
    ['a published link without /pub', 'https://docs.google.com/presentation/d/e/abc/edit'],
    ['a published link with /pubx', 'https://docs.google.com/presentation/d/e/abc/pubembed'],
    ['no id', 'https://docs.google.com/presentation/d/'],
    ['not a URL', 'presentation/d/abc'],
  ])('gives no embed for %s', (_, raw) => {
    expect(deriveEmbedUrl(raw)).toBe('');
  });

  it('accepts exactly the http(s) links on docs.google.com/presentation/ as Google Slides links', () => {
    expect(isGoogleSlidesUrl('https://docs.google.com/presentation/d/abc/edit')).toBe(true);
    expect(isGoogleSlidesUrl('https://docs.google.com/presentation/u/0/')).toBe(true);
    expect(isGoogleSlidesUrl('https://docs.google.com/spreadsheets/d/abc')).toBe(false);
    expect(isGoogleSlidesUrl('ftp://docs.google.com/presentation/d/abc')).toBe(false);
    expect(isGoogleSlidesUrl('https://evil.example/docs.google.com/presentation/d/abc')).toBe(false);
  });
});

describe('slide input', () => {
  it('splits tags on commas and trims them, from a typed string or a list, dropping blanks and repeats', () => {
    expect(splitTags(' greetings, unit 1 ,,vocabulary , greetings')).toEqual([
      'greetings',
      'unit 1',
      'vocabulary',
    ]);
    expect(splitTags(['a, b', ' c ', '', 'a'])).toEqual(['a', 'b', 'c']);
    fc.assert(
      fc.property(fc.array(fc.string()), (parts) => {
        const tags = splitTags(parts);
        for (const t of tags) expect(t === t.trim() && t !== '' && !t.includes(',')).toBe(true);
        expect(new Set(tags).size).toBe(tags.length);
      }),
    );
  });

  it('ignores a client-sent embedUrl and defaults isPublic to true', () => {
    const parsed = googleSlideInputSchema.parse({
      title: ' Deck ',
      googleSlidesUrl: 'https://docs.google.com/presentation/d/abc/edit',
      embedUrl: 'javascript:alert(1)',
    });
    expect(parsed).toEqual({
      title: 'Deck',
      description: '',
      googleSlidesUrl: 'https://docs.google.com/presentation/d/abc/edit',
      embedUrl: undefined,
      isPublic: true,
      category: '',
      tags: [],
    });
  });
});

import fc from 'fast-check';
import {
  PUBLIC_POSTS_DEFAULT_LIMIT,
  PUBLIC_POSTS_MAX_LIMIT,
  SLUG_PATTERN,
  publicPostsQuerySchema,
  readTimeFromTextLength,
  slugCandidate,
  slugify,
} from '@district/contracts';
import { htmlToText } from '../html/html-text';
import { excerptFromText, prefixTsQuery, readTimeOf } from './post-text';

describe('slug rule (spec §5)', () => {
  it.each([
    ['Ser vs. Estar', 'ser-vs-estar'],
    ['  Día de los   Muertos! ', 'dia-de-los-muertos'],
    ['a -- b', 'a-b'],
    ['¿¡!?', ''],
    ['Lección 2: ñandú', 'leccion-2-nandu'],
  ])('%j -> %j', (title, slug) => expect(slugify(title)).toBe(slug));

  it('always gives lower-case letters, digits and single inner hyphens (or nothing)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), (text) => {
        const slug = slugify(text);
        expect(slug === '' || SLUG_PATTERN.test(slug)).toBe(true);
        expect(slug).not.toMatch(/--|^-|-$|[A-Z\s]/);
      }),
    );
  });

  it('is idempotent, so an edited slug goes through the same rule unchanged', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => expect(slugify(slugify(text))).toBe(slugify(text))),
    );
  });

  it('keeps every alphanumeric ASCII character of the source, in order', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'abcXYZ019 -_.!é'.split('')), maxLength: 60 }),
        (text) => {
          const kept = text
            .normalize('NFKD')
            .replace(/[^A-Za-z0-9]/g, '')
            .toLowerCase();
          expect(slugify(text).replace(/-/g, '')).toBe(kept);
        },
      ),
    );
  });

  it('numbers candidates for a taken slug without ever repeating one', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z0-9]+(-[a-z0-9]+)*$/),
        fc.integer({ min: 0, max: 200 }),
        (base, n) => {
          const seen = new Set(Array.from({ length: n + 1 }, (_, i) => slugCandidate(base, i)));
          expect(seen.size).toBe(n + 1);
          expect(slugCandidate(base, n)).toMatch(SLUG_PATTERN);
        },
      ),
    );
  });
});

describe('read time (spec §9)', () => {
  it('is the text length over 200, rounded up, at least 1', () => {
    fc.assert(
      fc.property(fc.nat({ max: 1_000_000 }), (length) => {
        const minutes = readTimeFromTextLength(length);
        expect(minutes).toBe(Math.max(1, Math.ceil(length / 200)));
        expect(minutes * 200).toBeGreaterThanOrEqual(length);
        if (length > 200) expect((minutes - 1) * 200).toBeLessThan(length);
      }),
    );
  });

  it('counts the text, not the markup', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{1,600}$/), (word) => {
        expect(readTimeOf(htmlToText(`<p><strong class="x">${word}</strong></p>`))).toBe(
          readTimeFromTextLength(word.length),
        );
      }),
    );
  });
});

describe('public list query bounds', () => {
  it('accepts 1..100 and refuses anything else', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 1000 }), (limit) => {
        const parsed = publicPostsQuerySchema.safeParse({ limit: String(limit) });
        expect(parsed.success).toBe(limit >= 1 && limit <= PUBLIC_POSTS_MAX_LIMIT);
      }),
    );
    expect(publicPostsQuerySchema.parse({})).toEqual({ limit: PUBLIC_POSTS_DEFAULT_LIMIT, page: 1 });
  });

  it('refuses pages below 1 and non-integers', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: -50, max: 0 }), fc.double({ min: 0.1, max: 50, noInteger: true })),
        (page) => {
          expect(publicPostsQuerySchema.safeParse({ page: String(page) }).success).toBe(false);
        },
      ),
    );
  });
});

describe('search terms', () => {
  it('never lets tsquery syntax through', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 100 }), (input) => {
        const query = prefixTsQuery(input);
        if (query !== null) expect(query).toMatch(/^[\p{L}\p{N}]+:\*( & [\p{L}\p{N}]+:\*)*$/u);
      }),
    );
  });
});

describe('excerpt', () => {
  it('is the text when short, and at most 161 characters otherwise', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        const excerpt = excerptFromText(text);
        if (text.length <= 160) expect(excerpt).toBe(text);
        else expect(excerpt.length).toBeLessThanOrEqual(161);
      }),
    );
  });
});

import {
  assertFilterSubject,
  assertPublishSubject,
  intersectFilters,
  normalizeHeaders,
  retryDelay,
  subjectMatches,
} from './bus-rules';

describe('subjectMatches', () => {
  it.each([
    ['a.b.c', 'a.b.c', true],
    ['a.b.c', 'a.b', false],
    ['a.b', 'a.b.c', false],
    ['a.*.c', 'a.x.c', true],
    ['a.*.c', 'a.x.y.c', false],
    ['a.*', 'a', false],
    ['a.>', 'a', false],
    ['a.>', 'a.b', true],
    ['a.>', 'a.b.c.d', true],
    ['*.>', 'a.b', true],
    ['>', 'a', true],
    ['*', 'a.b', false],
  ])('%s matches %s: %s', (filter, subject, expected) => {
    expect(subjectMatches(filter, subject)).toBe(expected);
  });
});

describe('subject and header rules', () => {
  it('accepts concrete subjects and rejects wildcards, blanks and empty tokens', () => {
    expect(() => assertPublishSubject('identity.user.deleted.v1')).not.toThrow();
    for (const bad of ['', 'a..b', 'a.*', 'a.>', 'a b', '.a', 'a.']) {
      expect(() => assertPublishSubject(bad)).toThrow(/invalid subject/);
    }
  });

  it('accepts filters with * anywhere and > last only', () => {
    for (const ok of ['a.*.c', 'a.>', '>', '*.*']) expect(() => assertFilterSubject(ok)).not.toThrow();
    for (const bad of ['', 'a.>.c', 'a..b', 'a.b*', 'a >'])
      expect(() => assertFilterSubject(bad)).toThrow(/filter/);
  });

  it('rejects reserved, malformed or multi-line headers', () => {
    expect(normalizeHeaders({ 'x-request-id': 'abc 123' })).toEqual({ 'x-request-id': 'abc 123' });
    expect(() => normalizeHeaders({ 'Nats-Msg-Id': 'x' })).toThrow(/header name/);
    expect(() => normalizeHeaders({ 'x:y': 'x' })).toThrow(/header name/);
    expect(() => normalizeHeaders({ x: 'a\nb' })).toThrow(/header "x"/);
  });

  it('doubles the retry delay per delivery up to a cap (without jitter at the midpoint)', () => {
    const midpoint = () => 0.5;
    expect([1, 2, 3, 4].map((n) => retryDelay(100, n, midpoint))).toEqual([100, 200, 400, 800]);
    expect(retryDelay(1_000, 30, midpoint)).toBe(60_000);
  });

  it('spreads each retry delay by up to ±20 %, the capped one too', () => {
    expect(retryDelay(1_000, 1, () => 0)).toBe(800);
    expect(retryDelay(1_000, 1, () => 1)).toBe(1_200);
    expect(retryDelay(1_000, 30, () => 0)).toBe(48_000);
    expect(retryDelay(1_000, 30, () => 1)).toBe(72_000);
    // With the real random source: always within the band, and not all the same.
    const delays = Array.from({ length: 200 }, () => retryDelay(1_000, 2));
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(1_600);
    expect(Math.max(...delays)).toBeLessThanOrEqual(2_400);
    expect(new Set(delays).size).toBeGreaterThan(20);
  });
});

describe('intersectFilters', () => {
  it.each([
    ['*.audit.v1', 'chat.>', 'chat.audit.v1'],
    ['chat.>', '*.audit.v1', 'chat.audit.v1'],
    ['*.audit.v1', 'chat.audit.v1', 'chat.audit.v1'],
    ['*.audit.v1', 'chat.room.v1', null],
    ['*.audit.v1', 'chat', null],
    ['a.>', 'a.>', 'a.>'],
    ['a.>', 'a', null],
    ['a.*', '*.b', 'a.b'],
    ['a.b.>', 'a.>', 'a.b.>'],
    ['>', 'a.*', 'a.*'],
    ['a.b', 'a.b.c', null],
  ])('%s and %s: %s', (a, b, both) => {
    expect(intersectFilters(a, b)).toBe(both);
  });

  it('answers a filter matching exactly the subjects both match', () => {
    const filters = ['*.audit.v1', 'chat.>', 'a.*', '*.b', 'a.>', 'x.*.z'];
    const subjects = ['chat.audit.v1', 'a.b', 'a.c', 'x.y.z', 'chat.room', 'a.b.c', 'q.audit.v1'];
    for (const a of filters)
      for (const b of filters) {
        const both = intersectFilters(a, b);
        for (const subject of subjects)
          expect([a, b, subject, both !== null && subjectMatches(both, subject)]).toEqual([
            a,
            b,
            subject,
            subjectMatches(a, subject) && subjectMatches(b, subject),
          ]);
      }
  });
});

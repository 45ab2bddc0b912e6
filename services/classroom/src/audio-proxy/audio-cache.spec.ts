import { AudioCache, answerFromCache, type CachedAudio } from './audio-cache';

const file = (bytes: number, tag = 'a'): CachedAudio => ({
  body: Buffer.alloc(bytes, tag),
  headers: { 'content-type': 'audio/mpeg', etag: `"${tag}"` },
});

describe('AudioCache', () => {
  it('keeps a downloaded file until its time is up', () => {
    let now = 1_000;
    const cache = new AudioCache({ maxBytes: 100, maxFileBytes: 50, ttlMs: 10 }, () => now);
    expect(cache.claimFill('k', 20)).toBe(true);
    cache.settle('k', file(20));
    expect(cache.get('k')?.body.length).toBe(20);
    now += 9;
    expect(cache.get('k')).toBeDefined();
    now += 1;
    expect(cache.get('k')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('starts one download per link at a time, and none for a file kept, too large or of unknown size', () => {
    const cache = new AudioCache({ maxBytes: 100, maxFileBytes: 50, ttlMs: 1_000 });
    expect(cache.claimFill('k', 20)).toBe(true);
    expect(cache.claimFill('k', 20)).toBe(false);
    cache.settle('k', undefined);
    expect(cache.claimFill('k', 20)).toBe(true);
    cache.settle('k', file(20));
    expect(cache.claimFill('k', 20)).toBe(false);
    expect(cache.claimFill('big', 51)).toBe(false);
    expect(cache.claimFill('unknown', null)).toBe(false);
    expect(cache.claimFill('empty', 0)).toBe(false);
  });

  it('never has more bytes downloading at once than it may keep', () => {
    const cache = new AudioCache({ maxBytes: 100, maxFileBytes: 50, ttlMs: 1_000 });
    expect(cache.claimFill('a', 50)).toBe(true);
    expect(cache.claimFill('b', 40)).toBe(true);
    expect(cache.claimFill('c', 20)).toBe(false);
    cache.settle('a', undefined);
    expect(cache.claimFill('c', 20)).toBe(true);
    cache.settle('b', file(40));
    cache.settle('c', file(20));
    expect(cache.size).toBe(60);
  });

  it('keeps nothing when turned off (0 bytes)', () => {
    const cache = new AudioCache({ maxBytes: 0, maxFileBytes: 50, ttlMs: 1_000 });
    expect(cache.claimFill('k', 1)).toBe(false);
    cache.settle('k', file(1));
    expect(cache.get('k')).toBeUndefined();
  });

  it('drops the least recently played files to make room, and never holds more than its bytes', () => {
    const cache = new AudioCache({ maxBytes: 100, maxFileBytes: 50, ttlMs: 1_000 });
    for (const key of ['a', 'b', 'c']) {
      cache.claimFill(key, 40);
      cache.settle(key, file(40, key));
    }
    // a was pushed out by c; b and c stay.
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    // Played again, b becomes the most recent: the next file pushes c out.
    cache.get('b');
    cache.claimFill('d', 40);
    cache.settle('d', file(40, 'd'));
    expect(cache.get('c')).toBeUndefined();
    expect(cache.get('b')).toBeDefined();
    expect(cache.size).toBeLessThanOrEqual(100);
  });

  it('refuses a file that came larger than its limits, whatever was announced', () => {
    const cache = new AudioCache({ maxBytes: 100, maxFileBytes: 50, ttlMs: 1_000 });
    cache.claimFill('k', 20);
    cache.settle('k', file(60));
    expect(cache.get('k')).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});

describe('answerFromCache (RFC 9110 ranges of a kept file)', () => {
  const kept: CachedAudio = { body: Buffer.from('0123456789'), headers: { 'content-type': 'audio/ogg' } };
  const slice = (range: string | undefined) => {
    const answer = answerFromCache(kept, range);
    return answer.status === 416
      ? answer
      : { ...answer, text: kept.body.subarray(answer.start, answer.end).toString() };
  };

  it('answers the whole file without a range', () => {
    expect(slice(undefined)).toMatchObject({
      status: 200,
      text: '0123456789',
      headers: { 'content-type': 'audio/ogg', 'content-length': '10', 'accept-ranges': 'bytes' },
    });
  });

  it.each([
    ['bytes=0-0', '0', 'bytes 0-0/10'],
    ['bytes=2-5', '2345', 'bytes 2-5/10'],
    ['bytes=7-', '789', 'bytes 7-9/10'],
    ['bytes=8-100', '89', 'bytes 8-9/10'],
    ['bytes=-3', '789', 'bytes 7-9/10'],
    ['bytes=-30', '0123456789', 'bytes 0-9/10'],
  ])('%s → 206 %s', (range, text, contentRange) => {
    expect(slice(range)).toMatchObject({
      status: 206,
      text,
      headers: {
        'content-range': contentRange,
        'content-length': String(text.length),
        'content-type': 'audio/ogg',
      },
    });
  });

  it.each(['bytes=10-', 'bytes=10-20', 'bytes=-0'])('%s → 416', (range) => {
    expect(answerFromCache(kept, range)).toEqual({ status: 416, size: 10 });
  });

  it.each(['bytes=5-2', 'bytes=-', 'items=0-1'])('%s is not a range it can read: the whole file', (range) => {
    expect(slice(range)).toMatchObject({ status: 200, text: '0123456789' });
  });
});

import { PublicListCache, type RenderedPage } from './public-list-cache';

const page = (text: string, total = 1): RenderedPage => ({
  body: Buffer.from(text),
  etag: `"${text}"`,
  total,
});

/** A build whose answer the test releases when it wants, to interleave it with invalidations. */
function deferred(text: string): {
  build: () => Promise<RenderedPage>;
  release: () => void;
  calls: () => number;
} {
  let calls = 0;
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return {
    build: async () => {
      calls += 1;
      await gate;
      return page(text);
    },
    release: () => release(),
    calls: () => calls,
  };
}

function hearing(options: ConstructorParameters<typeof PublicListCache>[0] = {}): PublicListCache {
  const cache = new PublicListCache(options);
  cache.setHearing(true);
  return cache;
}

describe('PublicListCache', () => {
  it('keys a query by what selects the page, nothing else', () => {
    const key = PublicListCache.key({ limit: 20, page: 1 });
    expect(PublicListCache.key({ limit: 20, page: 1, q: '' })).toBe(key);
    expect(PublicListCache.key({ limit: 20, page: 2 })).not.toBe(key);
    expect(PublicListCache.key({ limit: 10, page: 1 })).not.toBe(key);
    expect(PublicListCache.key({ limit: 20, page: 1, category: 'grammar' })).not.toBe(key);
    expect(PublicListCache.key({ limit: 20, page: 1, q: 'grammar' })).not.toBe(
      PublicListCache.key({ limit: 20, page: 1, category: 'grammar' }),
    );
  });

  it('builds a page once and serves it from memory until an invalidation', async () => {
    const cache = hearing();
    let builds = 0;
    const build = async () => page(`v${++builds}`);
    expect((await cache.load('k', build)).body.toString()).toBe('v1');
    expect((await cache.load('k', build)).body.toString()).toBe('v1');
    expect(builds).toBe(1);
    cache.invalidate();
    expect((await cache.load('k', build)).body.toString()).toBe('v2');
    expect(builds).toBe(2);
  });

  it('never keeps a page whose query started before an invalidation', async () => {
    const cache = hearing();
    const slow = deferred('old');
    const pending = cache.load('k', slow.build);
    cache.invalidate();
    slow.release();
    expect((await pending).body.toString()).toBe('old');
    // The old page was answered to the request that was already waiting, but not kept.
    expect((await cache.load('k', async () => page('new'))).body.toString()).toBe('new');
  });

  it('shares one build between requests for the same page within a generation', async () => {
    const cache = hearing();
    const slow = deferred('shared');
    const a = cache.load('k', slow.build);
    const b = cache.load('k', slow.build);
    slow.release();
    expect((await a).body).toBe((await b).body);
    expect(slow.calls()).toBe(1);
  });

  it('does not share a build across an invalidation', async () => {
    const cache = hearing();
    const before = deferred('before');
    const first = cache.load('k', before.build);
    cache.invalidate();
    const after = cache.load('k', async () => page('after'));
    before.release();
    expect((await first).body.toString()).toBe('before');
    expect((await after).body.toString()).toBe('after');
  });

  it('builds again for a refresh (a client bypassing caches) and keeps the fresh page', async () => {
    const cache = hearing();
    await cache.load('k', async () => page('kept'));
    expect((await cache.refresh('k', async () => page('fresh'))).body.toString()).toBe('fresh');
    expect((await cache.load('k', async () => page('unused'))).body.toString()).toBe('fresh');
  });

  it('keeps nothing while invalidations cannot be heard, and forgets everything when that changes', async () => {
    const cache = new PublicListCache();
    expect(cache.active).toBe(false);
    let builds = 0;
    const build = async () => page(`v${++builds}`);
    await cache.load('k', build);
    await cache.load('k', build);
    expect(builds).toBe(2);
    expect(cache.size).toBe(0);

    cache.setHearing(true);
    await cache.load('k', build);
    await cache.load('k', build);
    expect(builds).toBe(3);
    // The connection drops: what was kept may miss changes from now on.
    cache.setHearing(false);
    expect(cache.size).toBe(0);
    await cache.load('k', build);
    expect(builds).toBe(4);
  });

  it('does not keep a page whose query started while deaf, even if hearing resumed meanwhile', async () => {
    const cache = new PublicListCache();
    const slow = deferred('deaf');
    const pending = cache.refresh('k', slow.build);
    cache.setHearing(true);
    slow.release();
    await pending;
    expect(cache.size).toBe(0);
  });

  it('forgets the least recently used pages beyond its byte budget, and skips pages too big to keep', async () => {
    const cache = hearing({ maxBytes: 80 });
    const tenBytes = (name: string) => async () => page(name.padEnd(10, '.'));
    for (const key of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) await cache.load(key, tenBytes(key));
    expect(cache.size).toBe(8);
    await cache.load('a', tenBytes('unused')); // "a" becomes the most recently used
    await cache.load('i', tenBytes('i'));
    expect(cache.size).toBe(8);
    let rebuilt = 0;
    await cache.load('b', async () => (rebuilt++, page('b'.padEnd(10, '.'))));
    await cache.load('a', async () => (rebuilt++, page('a'.padEnd(10, '.'))));
    expect(rebuilt).toBe(1); // "b" was the oldest and went; "a" stayed

    await cache.load('big', async () => page('x'.repeat(11)));
    let bigBuilds = 0;
    await cache.load('big', async () => (bigBuilds++, page('x'.repeat(11))));
    expect(bigBuilds).toBe(1);
  });

  it('builds again a page older than its maximum age', async () => {
    let now = 1_000;
    const cache = hearing({ maxAgeMs: 100, now: () => now });
    let builds = 0;
    const build = async () => page(`v${++builds}`);
    await cache.load('k', build);
    now += 99;
    await cache.load('k', build);
    expect(builds).toBe(1);
    now += 1;
    await cache.load('k', build);
    expect(builds).toBe(2);
  });

  it('passes a failed build on without keeping anything', async () => {
    const cache = hearing();
    await expect(cache.load('k', async () => Promise.reject(new Error('db down')))).rejects.toThrow(
      'db down',
    );
    expect((await cache.load('k', async () => page('ok'))).body.toString()).toBe('ok');
  });
});

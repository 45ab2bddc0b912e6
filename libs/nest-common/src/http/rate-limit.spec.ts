import { MemoryEphemeralStore } from '../pubsub';
import { RateLimitedException, RateLimiter, rateKey, type RateRule } from './rate-limit';

const rule: RateRule = { name: 'test.rule', limit: 3, windowMs: 60_000, message: 'Slow down' };

describe('RateLimiter', () => {
  it('lets `limit` hits through per subject, then answers 429 with Retry-After within the window', async () => {
    const store = new MemoryEphemeralStore();
    const limiter = new RateLimiter(store);
    for (let i = 0; i < 3; i++) await limiter.consume([rule, 'a']);
    const refused = await limiter.consume([rule, 'a']).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimitedException);
    expect((refused as RateLimitedException).getStatus()).toBe(429);
    expect((refused as RateLimitedException).retryAfter).toBeGreaterThan(0);
    expect((refused as RateLimitedException).retryAfter).toBeLessThanOrEqual(60);
    // Another subject has its own allowance.
    await expect(limiter.consume([rule, 'b'])).resolves.toBeUndefined();
    await store.close();
  });

  it('stops at the first rule over its limit, and keeps no plain subject in the key', async () => {
    const store = new MemoryEphemeralStore();
    const limiter = new RateLimiter(store);
    const tight = { ...rule, name: 'test.tight', limit: 1 };
    await limiter.consume([tight, '10.0.0.1'], [rule, 'x']);
    await expect(limiter.consume([tight, '10.0.0.1'], [rule, 'x'])).rejects.toBeInstanceOf(
      RateLimitedException,
    );
    expect(rateKey(tight, '10.0.0.1')).not.toContain('10.0.0.1');
    await store.close();
  });
});

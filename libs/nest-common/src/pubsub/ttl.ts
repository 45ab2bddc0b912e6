/** Redis rejects a zero or negative expiry; the smallest real one is 1 ms. Both stores round the same way. */
export function positiveTtl(ttlMs: number): number {
  if (!Number.isFinite(ttlMs)) throw new Error(`invalid TTL ${ttlMs}`);
  return Math.max(1, Math.ceil(ttlMs));
}

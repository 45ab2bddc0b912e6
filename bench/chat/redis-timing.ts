import type Redis from 'ioredis';

/** Redis's own CPU so far (user + sys, s), from `INFO cpu`. */
async function redisCpuSeconds(client: Redis): Promise<number> {
  const info = await client.info('cpu');
  const field = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? Number.NaN);
  return field('used_cpu_sys') + field('used_cpu_user');
}

/**
 * `run` called `calls` times one after another: the caller's wall time and Redis's CPU per call, in ms. Redis
 * should be otherwise idle (its CPU is read for the whole server), and the caller pinned away from it.
 */
export async function timePerCall(
  client: Redis,
  calls: number,
  run: () => Promise<unknown>,
): Promise<{ wallMs: number; redisCpuMs: number }> {
  const cpu0 = await redisCpuSeconds(client);
  const t0 = performance.now();
  for (let i = 0; i < calls; i++) await run();
  const wallMs = (performance.now() - t0) / calls;
  const redisCpuMs = (((await redisCpuSeconds(client)) - cpu0) * 1000) / calls;
  return { wallMs, redisCpuMs };
}

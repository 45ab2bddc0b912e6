import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError } from './api-client';

function answer(json: unknown) {
  const fetchMock = vi.fn(
    async () =>
      new Response(JSON.stringify(json), { status: 200, headers: { 'Content-Type': 'application/json' } }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('the API client with a zod-free guard (ADR 0024)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("passes on the guard's value and loads no schema", async () => {
    answer([{ id: 1, extra: true }]);
    const schema = vi.fn(async () => {
      throw new Error('no schema should load');
    });
    const guard = (v: unknown) =>
      Array.isArray(v) ? v.map((item: { id: number }) => ({ id: item.id })) : undefined;
    await expect(api.get('/api/things', { guard, schema })).resolves.toEqual([{ id: 1 }]);
    expect(schema).not.toHaveBeenCalled();
  });

  it('reports an answer the guard rejects as an unexpected answer, never passing it on', async () => {
    answer({ not: 'a list' });
    const err = await api
      .get('/api/things', { guard: (v) => (Array.isArray(v) ? v : undefined) })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      status: 200,
      message: 'The server sent an unexpected answer.',
      fromServer: false,
    });
  });
});

import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/react-query';
import { stubFetch, type FetchStub } from '@/testing/fetch-stub';
import { useChatrooms } from './chatrooms';

const room = { id: '11111111-1111-4111-8111-111111111111', name: 'Spanish 1', description: 'Period 1' };
const unauthorized = { status: 401, json: { statusCode: 401, message: 'Authentication Required' } };

function render(fetch: FetchStub) {
  // The app's own client (retries off, as in the route tests): the list's retry rule is the hook's own.
  const client = createQueryClient({ retry: false });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  // Read what the chat page reads while rendering (TanStack re-renders only for properties a render used).
  const hook = renderHook(
    () => {
      const query = useChatrooms();
      return { data: query.data, isError: query.isError };
    },
    { wrapper },
  );
  return { ...hook, calls: () => fetch.calls('GET', '/api/chatrooms').length };
}

/** Answers the listed replies in turn, then the last one again. */
function script(fetch: FetchStub, ...replies: object[]) {
  let i = 0;
  fetch.on('GET', '/api/chatrooms', () => replies[Math.min(i++, replies.length - 1)]);
}

/** Moves the fake clock, letting fetches settle and React render what they bring. */
const tick = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('useChatrooms (tools spec §7 GET /api/chatrooms)', () => {
  it('retries a 401 up to 2 more times, 1 s apart', async () => {
    const fetch = stubFetch();
    script(fetch, unauthorized, unauthorized, { json: [room] });
    const { result, calls } = render(fetch);
    await tick(0);
    expect(calls()).toBe(1);
    await tick(999);
    expect(calls()).toBe(1);
    await tick(1);
    expect(calls()).toBe(2);
    await tick(1000);
    expect(calls()).toBe(3);
    await tick(100);
    expect(result.current.data).toEqual([room]);
  });

  it('gives up after the third 401', async () => {
    const fetch = stubFetch();
    script(fetch, unauthorized);
    const { result, calls } = render(fetch);
    await tick(10_000);
    expect(calls()).toBe(3);
    expect(result.current.isError).toBe(true);
  });

  it('does not retry other failures', async () => {
    const fetch = stubFetch();
    script(fetch, { status: 500, json: { statusCode: 500, message: 'Internal server error' } });
    const { result, calls } = render(fetch);
    await tick(10_000);
    expect(calls()).toBe(1);
    expect(result.current.isError).toBe(true);
  });

  it('fetches an empty list once more after 2 s, and only once', async () => {
    const fetch = stubFetch();
    script(fetch, { json: [] }, { json: [] });
    const { calls } = render(fetch);
    await tick(0);
    expect(calls()).toBe(1);
    await tick(1999);
    expect(calls()).toBe(1);
    await tick(1);
    expect(calls()).toBe(2);
    await tick(20_000);
    expect(calls()).toBe(2);
  });

  it('shows the rooms the delayed fetch finds', async () => {
    const fetch = stubFetch();
    script(fetch, { json: [] }, { json: [room] });
    const { result } = render(fetch);
    await tick(2000);
    await tick(100);
    expect(result.current.data).toEqual([room]);
  });

  it('does not fetch again when the list has rooms', async () => {
    const fetch = stubFetch();
    script(fetch, { json: [room] });
    const { calls } = render(fetch);
    await tick(10_000);
    expect(calls()).toBe(1);
  });
});

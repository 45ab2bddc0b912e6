import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useConfirmedAction } from './use-confirmed-action';

interface Item {
  id: string;
}

/** A promise the test settles by hand, to look at the hook while the action is still running. */
function deferred() {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('useConfirmedAction', () => {
  it('runs the action with the asked-for target, busy while it runs, then clears target and busy', async () => {
    const pending = deferred();
    const run = vi.fn((_item: Item) => pending.promise);
    const { result } = renderHook(() => useConfirmedAction(run));
    const item = { id: 'a' };

    act(() => result.current.ask(item));
    expect(result.current.target).toBe(item);
    expect(result.current.busy).toBe(false);

    let done!: Promise<void>;
    act(() => {
      done = result.current.confirm();
    });
    expect(run).toHaveBeenCalledTimes(1);
    expect(run).toHaveBeenCalledWith(item);
    expect(result.current.busy).toBe(true);
    expect(result.current.target).toBe(item);

    await act(async () => {
      pending.resolve();
      await done;
    });
    expect(result.current.busy).toBe(false);
    expect(result.current.target).toBeNull();
  });

  it('passes a failure to onError without throwing, and clears target and busy', async () => {
    const pending = deferred();
    const failure = new Error('nope');
    const onError = vi.fn();
    const { result } = renderHook(() => useConfirmedAction((_item: Item) => pending.promise, { onError }));
    const item = { id: 'b' };

    act(() => result.current.ask(item));
    let done!: Promise<void>;
    act(() => {
      done = result.current.confirm();
    });
    expect(result.current.busy).toBe(true);

    await act(async () => {
      pending.reject(failure);
      await expect(done).resolves.toBeUndefined();
    });
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError).toHaveBeenCalledWith(failure, item);
    expect(result.current.busy).toBe(false);
    expect(result.current.target).toBeNull();
  });

  it('logs a failure when no onError is given, and still resolves', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failure = new Error('boom');
    const { result } = renderHook(() => useConfirmedAction((_item: Item) => Promise.reject(failure)));

    act(() => result.current.ask({ id: 'c' }));
    await act(() => result.current.confirm());
    expect(spy).toHaveBeenCalledWith('Confirmed action failed', failure);
    expect(result.current.target).toBeNull();
    spy.mockRestore();
  });

  it('does nothing on confirm when nothing was asked for, or after cancel', async () => {
    const run = vi.fn((_item: Item) => Promise.resolve());
    const { result } = renderHook(() => useConfirmedAction(run));

    await act(() => result.current.confirm());
    expect(run).not.toHaveBeenCalled();
    expect(result.current.busy).toBe(false);

    act(() => result.current.ask({ id: 'd' }));
    act(() => result.current.cancel());
    expect(result.current.target).toBeNull();
    await act(() => result.current.confirm());
    expect(run).not.toHaveBeenCalled();
  });

  it('runs once when confirmed twice while busy, also within the same tick', async () => {
    const pending = deferred();
    const run = vi.fn((_item: Item) => pending.promise);
    const { result } = renderHook(() => useConfirmedAction(run));

    act(() => result.current.ask({ id: 'e' }));
    let first!: Promise<void>;
    let second!: Promise<void>;
    let third!: Promise<void>;
    act(() => {
      // Same render's confirm twice: no re-render in between.
      first = result.current.confirm();
      second = result.current.confirm();
    });
    act(() => {
      // And once more after the busy re-render.
      third = result.current.confirm();
    });
    expect(result.current.busy).toBe(true);

    await act(async () => {
      pending.resolve();
      await Promise.all([first, second, third]);
    });
    expect(run).toHaveBeenCalledTimes(1);
    expect(result.current.busy).toBe(false);
  });
});

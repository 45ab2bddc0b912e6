import { QueryClientProvider, useMutation } from '@tanstack/react-query';
import { act, render, renderHook, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { createQueryClient } from '@/lib/react-query';
import { ToastProvider } from './toast';
import { useToastMutation, type ToastMutationMessages } from './use-toast-mutation';

function wrapper({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={createQueryClient({ retry: false })}>
      <ToastProvider>{children}</ToastProvider>
    </QueryClientProvider>
  );
}

function setup(
  fn: (name: string) => Promise<{ id: string }>,
  messages: ToastMutationMessages<{ id: string }, string>,
) {
  return renderHook(() => useToastMutation(useMutation({ mutationFn: fn }), messages), { wrapper });
}

afterEach(() => vi.restoreAllMocks());

describe('useToastMutation', () => {
  it("toasts the spec's success text and resolves with the data", async () => {
    const { result } = setup(async (name) => ({ id: `${name}-1` }), {
      success: (data, name) => `Created ${name} as ${data.id}`,
      error: 'Failed to create',
      log: 'Creating failed',
    });
    let outcome: Awaited<ReturnType<typeof result.current.run>> | undefined;
    await act(async () => {
      outcome = await result.current.run('room');
    });
    expect(outcome).toEqual({ ok: true, data: { id: 'room-1' } });
    expect(screen.getByRole('status')).toHaveTextContent('Created room as room-1');
  });

  it("toasts the server's JSON message when it sent one, logs the error, and never rejects", async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const err = new ApiError(409, 'A category with this slug already exists', true);
    const { result } = setup(() => Promise.reject(err), {
      success: 'Category created successfully',
      error: 'Failed to save category',
      log: 'Saving the category failed',
    });
    let outcome: Awaited<ReturnType<typeof result.current.run>> | undefined;
    await act(async () => {
      outcome = await result.current.run('x');
    });
    expect(outcome).toEqual({ ok: false, error: err });
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('A category with this slug already exists');
    expect(alert).not.toHaveTextContent('Failed to save category');
    expect(screen.getByRole('status')).not.toHaveTextContent('Category created successfully');
    expect(log).toHaveBeenCalledWith('Saving the category failed', err);
  });

  it("falls back to the spec's text when the server gave no message", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { result } = setup(() => Promise.reject(new ApiError(0, 'Network error.', false)), {
      error: 'Failed to save category',
      log: 'Saving the category failed',
    });
    await act(async () => {
      await result.current.run('x');
    });
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to save category');
    expect(screen.getByRole('alert')).not.toHaveTextContent('Network error.');
  });

  it('lets a function word the error, and exposes the mutation state', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let reject!: (err: unknown) => void;
    const { result } = setup(() => new Promise((_, r) => (reject = r)), {
      error: (err, name) => `Error: ${err instanceof Error ? err.message : '?'} (${name})`,
      log: 'Failed',
    });
    let running!: Promise<unknown>;
    act(() => {
      running = result.current.run('plan');
    });
    await vi.waitFor(() => expect(result.current.isPending).toBe(true));
    await act(async () => {
      reject(new ApiError(500, 'boom', true));
      await running;
    });
    await vi.waitFor(() => expect(result.current.isPending).toBe(false));
    expect(screen.getByRole('alert')).toHaveTextContent('Error: boom (plan)');
  });

  it('leaves the failure to the screen when no error text is given (a banner), still logging it', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const err = new ApiError(500, 'Database down', true);
    const { result } = setup(() => Promise.reject(err), { success: 'Saved', log: 'Saving failed' });
    let outcome: Awaited<ReturnType<typeof result.current.run>> | undefined;
    await act(async () => {
      outcome = await result.current.run('x');
    });
    expect(outcome).toEqual({ ok: false, error: err });
    expect(screen.getByRole('alert').textContent).toBe('');
    expect(screen.getByRole('status').textContent).toBe('');
    expect(log).toHaveBeenCalledWith('Saving failed', err);
  });

  it('renders under the provider only', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    function Bare() {
      useToastMutation(useMutation({ mutationFn: async () => 1 }), { error: 'x', log: 'x' });
      return null;
    }
    expect(() =>
      render(
        <QueryClientProvider client={createQueryClient()}>
          <Bare />
        </QueryClientProvider>,
      ),
    ).toThrow('useToast must be used inside <ToastProvider>');
  });
});

import { useEffect } from 'react';
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider, useToast, type ToastOptions } from './toast';

let api: ReturnType<typeof useToast>;
function Grab({ onReady }: { onReady: (toasts: ReturnType<typeof useToast>) => void }) {
  const toasts = useToast();
  useEffect(() => onReady(toasts), [toasts, onReady]);
  return null;
}

describe('toasts (spec section 9)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    render(
      <ToastProvider>
        <Grab
          onReady={(t) => {
            api = t;
          }}
        />
      </ToastProvider>,
    );
  });
  afterEach(() => vi.useRealTimers());

  const show = (o: ToastOptions) => act(() => void api.toast(o));
  const advance = (ms: number) => act(() => void vi.advanceTimersByTime(ms));

  it.each([
    ['success', 3000],
    ['info', 3000],
    ['warning', 3000],
    ['error', 5000],
  ] as const)('%s disappears after %i ms', (type, ms) => {
    show({ type, message: `a ${type} toast` });
    expect(screen.getByText(`a ${type} toast`)).toBeInTheDocument();
    advance(ms - 1);
    expect(screen.getByText(`a ${type} toast`)).toBeInTheDocument();
    advance(1);
    expect(screen.queryByText(`a ${type} toast`)).not.toBeInTheDocument();
  });

  it('honours a custom duration and shows the title', () => {
    show({ type: 'info', title: 'Heads up', message: 'custom', durationMs: 10_000 });
    expect(screen.getByText('Heads up')).toBeInTheDocument();
    advance(9_999);
    expect(screen.getByText('custom')).toBeInTheDocument();
    advance(1);
    expect(screen.queryByText('custom')).not.toBeInTheDocument();
  });

  it('announces errors assertively and others politely, in regions present from the start', () => {
    const assertive = screen.getByRole('alert');
    const polite = screen.getByRole('status');
    expect(assertive).toHaveAttribute('aria-live', 'assertive');
    expect(polite).toHaveAttribute('aria-live', 'polite');
    show({ type: 'error', message: 'went wrong' });
    show({ type: 'success', message: 'went right' });
    expect(assertive).toHaveTextContent('Error: went wrong');
    expect(polite).toHaveTextContent('Success: went right');
  });

  it('can be dismissed early', () => {
    show({ type: 'error', message: 'dismiss me' });
    act(() => screen.getByRole('button', { name: 'Dismiss notification' }).click());
    expect(screen.queryByText('dismiss me')).not.toBeInTheDocument();
  });
});

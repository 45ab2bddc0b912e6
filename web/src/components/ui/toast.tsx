import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { TOAST_ERROR_MS, TOAST_SUCCESS_MS } from '@/config/constants';
import { cn } from '@/lib/cn';

export type ToastType = 'success' | 'error' | 'warning' | 'info';

export interface ToastOptions {
  type: ToastType;
  title?: string;
  message: string;
  /** Defaults: 3 s for success, info and warning; 5 s for errors (spec section 9). */
  durationMs?: number;
}

interface ToastItem extends Required<Pick<ToastOptions, 'type' | 'message' | 'durationMs'>> {
  id: number;
  title?: string;
}

export interface ToastApi {
  toast(options: ToastOptions): number;
  dismiss(id: number): void;
}

const ToastContext = createContext<ToastApi | null>(null);

export function defaultToastDuration(type: ToastType): number {
  return type === 'error' ? TOAST_ERROR_MS : TOAST_SUCCESS_MS;
}

const styles: Record<ToastType, { box: string; icon: string; path: string; label: string }> = {
  success: {
    box: 'border-emerald-200 bg-emerald-50 text-emerald-900',
    icon: 'text-emerald-600',
    path: 'M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0Z',
    label: 'Success',
  },
  error: {
    box: 'border-red-200 bg-red-50 text-red-900',
    icon: 'text-red-600',
    path: 'M10 2a8 8 0 1 0 0 16 8 8 0 0 0 0-16Zm-1 4a1 1 0 1 1 2 0v4a1 1 0 1 1-2 0V6Zm1 9a1.25 1.25 0 1 1 0-2.5A1.25 1.25 0 0 1 10 15Z',
    label: 'Error',
  },
  warning: {
    box: 'border-amber-200 bg-amber-50 text-amber-900',
    icon: 'text-amber-600',
    path: 'M8.3 3.2a2 2 0 0 1 3.4 0l6.1 10.6A2 2 0 0 1 16.1 17H3.9a2 2 0 0 1-1.7-3.2L8.3 3.2ZM9 7v4a1 1 0 1 0 2 0V7a1 1 0 1 0-2 0Zm1 8a1.1 1.1 0 1 0 0-2.2 1.1 1.1 0 0 0 0 2.2Z',
    label: 'Warning',
  },
  info: {
    box: 'border-brand-200 bg-brand-50 text-brand-900',
    icon: 'text-brand-600',
    path: 'M10 2a8 8 0 1 0 0 16 8 8 0 0 0 0-16Zm0 4a1.1 1.1 0 1 1 0 2.2A1.1 1.1 0 0 1 10 6Zm-1 4a1 1 0 1 1 2 0v4a1 1 0 1 1-2 0v-4Z',
    label: 'Information',
  },
};

function ToastView({ item, onDismiss }: { item: ToastItem; onDismiss: (id: number) => void }) {
  const s = styles[item.type];
  return (
    <li
      className={cn(
        'animate-toast-in pointer-events-auto flex w-full items-start gap-3 rounded-xl border p-3 shadow-lg',
        s.box,
      )}
      data-toast-type={item.type}
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 20 20"
        fill="currentColor"
        className={cn('mt-0.5 size-5 shrink-0', s.icon)}
      >
        <path fillRule="evenodd" d={s.path} />
      </svg>
      <div className="min-w-0 flex-1 text-sm">
        <span className="sr-only">{s.label}: </span>
        {item.title ? <p className="font-semibold">{item.title}</p> : null}
        <p className="break-words">{item.message}</p>
      </div>
      <button
        type="button"
        onClick={() => onDismiss(item.id)}
        className="-m-1 rounded-md p-1 opacity-70 hover:opacity-100"
        aria-label="Dismiss notification"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
          <path d="M5.3 5.3a1 1 0 0 1 1.4 0L10 8.6l3.3-3.3a1 1 0 1 1 1.4 1.4L11.4 10l3.3 3.3a1 1 0 0 1-1.4 1.4L10 11.4l-3.3 3.3a1 1 0 0 1-1.4-1.4L8.6 10 5.3 6.7a1 1 0 0 1 0-1.4Z" />
        </svg>
      </button>
    </li>
  );
}

/**
 * Holds the toasts of the page. Two live regions exist from the start (screen readers only announce
 * changes to regions already in the document): errors are assertive, everything else polite.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<ToastItem[]>([]);
  const nextId = useRef(1);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  const dismiss = useCallback((id: number) => {
    const timer = timers.current.get(id);
    if (timer) clearTimeout(timer);
    timers.current.delete(id);
    setItems((list) => list.filter((t) => t.id !== id));
  }, []);

  const toast = useCallback(
    (options: ToastOptions) => {
      const id = nextId.current++;
      const durationMs = options.durationMs ?? defaultToastDuration(options.type);
      setItems((list) => [
        ...list.slice(-4),
        { id, type: options.type, title: options.title, message: options.message, durationMs },
      ]);
      timers.current.set(
        id,
        setTimeout(() => dismiss(id), durationMs),
      );
      return id;
    },
    [dismiss],
  );

  useEffect(() => {
    const map = timers.current;
    return () => {
      map.forEach((t) => clearTimeout(t));
      map.clear();
    };
  }, []);

  const value = useMemo<ToastApi>(() => ({ toast, dismiss }), [toast, dismiss]);
  const errors = items.filter((t) => t.type === 'error');
  const others = items.filter((t) => t.type !== 'error');

  return (
    <ToastContext.Provider value={value}>
      {children}
      {/* Without toasts the region has no size (no padding), so the page settling around it is no layout shift. */}
      <div
        className={`pointer-events-none fixed inset-x-0 bottom-0 z-[60] flex flex-col items-center sm:inset-x-auto sm:right-0 sm:top-16 sm:bottom-auto sm:w-96 sm:items-end ${items.length ? 'gap-2 p-3' : ''}`}
      >
        {/* The live-region role sits on a wrapper so the lists stay real lists for assistive technology. */}
        <div role="alert" aria-live="assertive" aria-atomic="false" className="w-full">
          <ol className="flex w-full flex-col gap-2">
            {errors.map((item) => (
              <ToastView key={item.id} item={item} onDismiss={dismiss} />
            ))}
          </ol>
        </div>
        <div role="status" aria-live="polite" aria-atomic="false" className="w-full">
          <ol className="flex w-full flex-col gap-2">
            {others.map((item) => (
              <ToastView key={item.id} item={item} onDismiss={dismiss} />
            ))}
          </ol>
        </div>
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast must be used inside <ToastProvider>');
  return api;
}

import { useRef, useState } from 'react';

export interface ConfirmedActionOptions<T> {
  /** Called with the failure and the target when `run` rejects; the error goes no further. */
  onError?: (err: unknown, target: T) => void;
}

export interface ConfirmedAction<T> {
  /** What is waiting for confirmation (drives the dialog's `open`), or null. */
  target: T | null;
  /** True while the confirmed action runs. */
  busy: boolean;
  /** Remember a target and so open the confirmation. */
  ask: (target: T) => void;
  /** Forget the target (the dialog's Cancel). */
  cancel: () => void;
  /** Run the action on the target; never rejects. Clears busy and the target when done, failed or not. */
  confirm: () => Promise<void>;
}

/**
 * The confirm-then-act pattern behind a ConfirmDialog: `ask(x)` opens it, `confirm()` runs `run(x)` once
 * (a second confirm while it runs is ignored), a failure goes to `onError` (console.error if none).
 */
export function useConfirmedAction<T>(
  run: (target: T) => Promise<void>,
  { onError }: ConfirmedActionOptions<T> = {},
): ConfirmedAction<T> {
  const [target, setTarget] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);
  // Refs so that two confirms in the same tick (before a re-render) see the first one's state.
  const targetRef = useRef<T | null>(null);
  const busyRef = useRef(false);

  const select = (next: T | null) => {
    targetRef.current = next;
    setTarget(next);
  };

  const confirm = async () => {
    const current = targetRef.current;
    if (current === null || busyRef.current) return;
    busyRef.current = true;
    setBusy(true);
    try {
      await run(current);
    } catch (err) {
      if (onError) onError(err, current);
      else console.error('Confirmed action failed', err);
    } finally {
      busyRef.current = false;
      setBusy(false);
      select(null);
    }
  };

  return { target, busy, ask: (next: T) => select(next), cancel: () => select(null), confirm };
}

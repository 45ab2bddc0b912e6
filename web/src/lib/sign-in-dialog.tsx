import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

export type SignInMode = 'signin' | 'signup';

export interface SignInDialogOptions {
  /** Where to go once signed in or registered through this opening of the dialog (the lesson a visitor wanted). */
  returnTo?: string;
}

export interface SignInDialogState {
  isOpen: boolean;
  mode: SignInMode;
  /** Set by the opener, cleared when the dialog closes. */
  returnTo: string | undefined;
  open(mode: SignInMode, options?: SignInDialogOptions): void;
  setMode(mode: SignInMode): void;
  close(): void;
}

const SignInDialogContext = createContext<SignInDialogState | null>(null);

/**
 * Whether the sign-in modal is open, and in which mode. Kept here so the navbar (shared layout) and
 * any feature can open it while the modal itself lives in features/accounts, mounted once by the app.
 */
export function SignInDialogProvider({ children }: { children: ReactNode }) {
  const [isOpen, setOpen] = useState(false);
  const [mode, setMode] = useState<SignInMode>('signin');
  const [returnTo, setReturnTo] = useState<string | undefined>();
  const open = useCallback((next: SignInMode, options: SignInDialogOptions = {}) => {
    setMode(next);
    setReturnTo(options.returnTo);
    setOpen(true);
  }, []);
  const close = useCallback(() => {
    setOpen(false);
    setReturnTo(undefined);
  }, []);
  const value = useMemo(
    () => ({ isOpen, mode, returnTo, open, setMode, close }),
    [isOpen, mode, returnTo, open, close],
  );
  return <SignInDialogContext.Provider value={value}>{children}</SignInDialogContext.Provider>;
}

export function useSignInDialog(): SignInDialogState {
  const ctx = useContext(SignInDialogContext);
  if (!ctx) throw new Error('useSignInDialog must be used inside <SignInDialogProvider>');
  return ctx;
}

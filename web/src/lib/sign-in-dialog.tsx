import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

export type SignInMode = 'signin' | 'signup';

export interface SignInDialogState {
  isOpen: boolean;
  mode: SignInMode;
  open(mode: SignInMode): void;
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
  const open = useCallback((next: SignInMode) => {
    setMode(next);
    setOpen(true);
  }, []);
  const close = useCallback(() => setOpen(false), []);
  const value = useMemo(() => ({ isOpen, mode, open, setMode, close }), [isOpen, mode, open, close]);
  return <SignInDialogContext.Provider value={value}>{children}</SignInDialogContext.Provider>;
}

export function useSignInDialog(): SignInDialogState {
  const ctx = useContext(SignInDialogContext);
  if (!ctx) throw new Error('useSignInDialog must be used inside <SignInDialogProvider>');
  return ctx;
}

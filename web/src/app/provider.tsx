import { useEffect, useRef, useState, type ReactNode } from 'react';
import { QueryClientProvider, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { ToastProvider } from '@/components/ui';
import { SessionProvider, useSession } from '@/lib/auth';
import { createQueryClient, useListRefreshTriggers } from '@/lib/react-query';
import { SignInDialogProvider } from '@/lib/sign-in-dialog';
import { prefetchSignInMethods } from '@/lib/sign-in-methods';

function ListRefreshTriggers() {
  useListRefreshTriggers();
  return null;
}

/** When a different person (or nobody) is signed in, cached server data of the previous one must not show. */
function ResetCacheOnUserChange() {
  const { user, loading } = useSession();
  const client = useQueryClient();
  const lastUserId = useRef<string | null | undefined>(undefined);
  const userId = user?.id ?? null;
  useEffect(() => {
    // While the first GET /api/auth/me is in flight nobody was signed in before: the public data the first HTML
    // carried (ADR 0023) stays for whoever the session turns out to be.
    if (loading) return;
    if (lastUserId.current !== undefined && lastUserId.current !== userId) void client.resetQueries();
    lastUserId.current = userId;
  }, [userId, loading, client]);
  return null;
}

/** Which sign-in methods exist is asked beside the session check, so no sign-in button waits for it (ADR 0034). */
function PrefetchSignInMethods() {
  const client = useQueryClient();
  useEffect(() => prefetchSignInMethods(client), [client]);
  return null;
}

/** Every app-wide provider, in dependency order. Tests pass their own QueryClient. */
export function AppProvider({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <QueryClientProvider client={client}>
      <ListRefreshTriggers />
      <PrefetchSignInMethods />
      <ToastProvider>
        <SessionProvider>
          <ResetCacheOnUserChange />
          <SignInDialogProvider>{children}</SignInDialogProvider>
        </SessionProvider>
      </ToastProvider>
    </QueryClientProvider>
  );
}

import { lazy, Suspense } from 'react';
import { FullPageSpinner } from '@/components/ui';
import { Layout } from '@/components/layout';
import { useSession } from '@/lib/auth';
import { useSignInDialog } from '@/lib/sign-in-dialog';
import { ScrollRestoration } from './scroll-restoration';

// The modal's code is only fetched when someone opens it, keeping the home route small.
const SignInModal = lazy(() =>
  import('@/features/accounts/components/sign-in-modal').then((m) => ({ default: m.SignInModal })),
);

/** Root route element: nothing route-specific renders until GET /api/auth/me has answered (spec section 4). */
export function AppShell() {
  const { loading } = useSession();
  const dialog = useSignInDialog();
  if (loading) return <FullPageSpinner label="Loading your session…" />;
  return (
    <>
      <ScrollRestoration />
      <Layout />
      {dialog.isOpen ? (
        <Suspense fallback={null}>
          <SignInModal />
        </Suspense>
      ) : null}
    </>
  );
}

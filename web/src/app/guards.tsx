import type { ReactNode } from 'react';
import { IdentityMessages } from '@district/contracts/identity';
import { Button, ButtonLink, buttonClasses } from '@/components/ui';
import { DocumentTitle, SignInLink } from '@/components/layout';
import { isAdmin, isTeacherOrAdmin, useSession } from '@/lib/auth';
import { useSignInDialog } from '@/lib/sign-in-dialog';
import { useThirdPartySignIn } from '@/lib/sign-in-methods';

const STAFF_REQUIRED = 'You need admin or teacher privileges to view this page.';

/** `staff`: an approved teacher or an admin (the grade dashboards, classroom-tools §6), as the server decides it. */
export type GuardLevel = 'login' | 'approved' | 'admin' | 'staff';

function GuardScreen({
  tone,
  title,
  children,
  actions,
}: {
  tone: 'lock' | 'clock' | 'shield';
  title: string;
  children: ReactNode;
  actions: ReactNode;
}) {
  const icons = {
    lock: 'M12 2a5 5 0 0 0-5 5v3H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-8a2 2 0 0 0-2-2h-1V7a5 5 0 0 0-5-5Zm-3 8V7a3 3 0 1 1 6 0v3H9Z',
    clock:
      'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm1 5a1 1 0 1 0-2 0v5c0 .3.1.5.3.7l3 3a1 1 0 0 0 1.4-1.4L13 11.6V7Z',
    shield: 'M12 2 4 5v6c0 5 3.4 9.7 8 11 4.6-1.3 8-6 8-11V5l-8-3Zm-1 5h2v6h-2V7Zm0 8h2v2h-2v-2Z',
  };
  const colours = {
    lock: 'bg-brand-50 text-brand-700',
    clock: 'bg-amber-50 text-amber-600',
    shield: 'bg-red-50 text-red-600',
  };
  return (
    <div className="flex flex-1 items-center justify-center px-4 py-16">
      <DocumentTitle title={title} />
      <section
        aria-labelledby="guard-title"
        className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm"
      >
        <span className={`mx-auto flex size-14 items-center justify-center rounded-full ${colours[tone]}`}>
          <svg aria-hidden="true" viewBox="0 0 24 24" className="size-7" fill="currentColor">
            <path fillRule="evenodd" d={icons[tone]} />
          </svg>
        </span>
        <h1 id="guard-title" className="mt-4 text-2xl font-bold text-slate-900">
          {title}
        </h1>
        <div className="mt-2 text-slate-600">{children}</div>
        <div className="mt-6 flex flex-wrap justify-center gap-3">{actions}</div>
      </section>
    </div>
  );
}

/**
 * Login goes to the third-party sign-in where the site has a provider (spec), with email as the second way; without
 * one, Login itself opens the email dialog (ADR 0034). Either way, once signed in, this page shows what was asked for.
 */
export function AuthenticationRequired() {
  const signIn = useSignInDialog();
  const thirdParty = useThirdPartySignIn();
  return (
    <GuardScreen
      tone="lock"
      title={IdentityMessages.authenticationRequired}
      actions={
        <>
          <SignInLink className={buttonClasses('primary')}>Login</SignInLink>
          {thirdParty ? (
            <Button variant="outline" onClick={() => signIn.open('signin')}>
              Sign in with email
            </Button>
          ) : null}
        </>
      }
    >
      <p>Please sign in to view this page.</p>
    </GuardScreen>
  );
}

export function AccountPendingApproval() {
  return (
    <GuardScreen
      tone="clock"
      title={IdentityMessages.accountPendingApproval}
      actions={
        <ButtonLink to="/" variant="outline">
          Go Home
        </ButtonLink>
      }
    >
      <p>Your account is waiting for approval by an administrator. Please check back later.</p>
    </GuardScreen>
  );
}

export function AccessDenied({ adminPage = false, message }: { adminPage?: boolean; message?: string }) {
  return (
    <GuardScreen
      tone="shield"
      title={IdentityMessages.accessDenied}
      actions={
        <ButtonLink to="/" variant="outline">
          Go Home
        </ButtonLink>
      }
    >
      <p>
        {message ??
          (adminPage ? IdentityMessages.adminRequired : 'You need admin privileges to view this page.')}
      </p>
    </GuardScreen>
  );
}

/**
 * Route guard (spec section 2), checked in order: signed in, then approved, then admin (or, for `staff`, teacher or
 * admin, then approved).
 * The session is already resolved here: the app shows a full-page spinner until it is.
 */
export function Guard({
  level,
  deniedMessage,
  children,
}: {
  level: GuardLevel;
  deniedMessage?: string;
  children: ReactNode;
}) {
  const { user } = useSession();
  if (!user) return <AuthenticationRequired />;
  if (level === 'approved' && !user.approved) return <AccountPendingApproval />;
  if (level === 'admin' && !isAdmin(user)) return <AccessDenied adminPage />;
  if (level === 'staff') {
    // Teacher and admin rights count only on an approved account (the server's rule).
    if (!isTeacherOrAdmin(user)) return <AccessDenied message={deniedMessage ?? STAFF_REQUIRED} />;
    if (!user.approved) return <AccountPendingApproval />;
  }
  return <>{children}</>;
}

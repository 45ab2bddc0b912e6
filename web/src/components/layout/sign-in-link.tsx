import type { ReactNode } from 'react';
import { THIRD_PARTY_SIGN_IN_URL } from '@/config/constants';
import { useSignInDialog } from '@/lib/sign-in-dialog';
import { useThirdPartySignIn } from '@/lib/sign-in-methods';

/**
 * A signed-out visitor's way in from a call to action (Read More, the guard's Login). Where the site has a
 * third-party provider it is the spec's link to it; elsewhere it opens the email sign-in dialog, which brings the
 * person to `returnTo` once signed in (issue #34, ADR 0034).
 */
export function SignInLink({
  returnTo,
  className,
  label,
  children,
}: {
  /** Where to go after signing in through the dialog; omit to stay on the page. */
  returnTo?: string;
  className?: string;
  /** Accessible name when it differs from the visible text. */
  label?: string;
  children: ReactNode;
}) {
  const thirdParty = useThirdPartySignIn();
  const dialog = useSignInDialog();
  if (thirdParty) {
    return (
      <a href={THIRD_PARTY_SIGN_IN_URL} className={className} aria-label={label}>
        {children}
      </a>
    );
  }
  return (
    <button
      type="button"
      className={className}
      aria-label={label}
      onClick={() => dialog.open('signin', { returnTo })}
    >
      {children}
    </button>
  );
}

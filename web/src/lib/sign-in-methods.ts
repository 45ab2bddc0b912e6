import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { SignInMethods } from '@district/contracts/identity';
import { api } from './api-client';
import { isBoolean, matchShape, pickShape, type FieldChecks } from './shape-guard';

const FIELDS: FieldChecks<SignInMethods> = { password: (v) => v === true, thirdParty: isBoolean };

/** The contract's signInMethodsSchema without zod (the home route's first paint needs the answer). */
export function parseSignInMethods(value: unknown): SignInMethods | undefined {
  return matchShape(value, FIELDS) ? pickShape(value, FIELDS) : undefined;
}

const signInMethodsQuery = {
  queryKey: ['auth', 'sign-in-methods'] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    api.get('/api/auth/sign-in-methods', { guard: parseSignInMethods, signal }),
  // Changes only when the site is reconfigured (a restart): once per visit is enough.
  staleTime: Infinity,
};

/** Asked at start, beside GET /api/auth/me, so the answer is there when the first sign-in button is pressed. */
export function prefetchSignInMethods(client: QueryClient): void {
  void client.prefetchQuery(signInMethodsQuery);
}

/**
 * Whether this site has a third-party sign-in (OpenID Connect) provider. Until the answer is known, or when it
 * cannot be had, the answer is no: the email dialog always works, the provider's link would be a dead end on a site
 * without one (issue #34, ADR 0034).
 */
export function useThirdPartySignIn(): boolean {
  return useQuery(signInMethodsQuery).data?.thirdParty === true;
}

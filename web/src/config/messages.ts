/**
 * Spec texts used by the shell that are not already in @district/contracts (IdentityMessages).
 * Source: shared/spec/blog-accounts-admin.md sections 2 and 8.
 */
export const ShellMessages = {
  loginSuccess: 'Successfully logged in!',
  registerSuccess: 'Account created successfully!',
  loginRequiredQuery: 'Please sign in to access that page.',
  adminRequiredQuery: 'Admin access required for that page.',
  footerTagline: 'Educational tools and interactive learning experiences.',
  notFoundTitle: 'Page Not Found',
} as const;

/** Values of the `message` query parameter the home page understands. */
export const HomeQueryMessages: Record<string, string> = {
  'login-required': ShellMessages.loginRequiredQuery,
  'admin-required': ShellMessages.adminRequiredQuery,
};

/** Texts of the spec (shared/spec/blog-accounts-admin.md), shared by server and web so they cannot drift. */
export const IdentityMessages = {
  authenticationRequired: 'Authentication Required',
  accountPendingApproval: 'Account Pending Approval',
  accessDenied: 'Access Denied',
  adminRequired: 'Access denied. Admin privileges required.',
  passwordsDoNotMatch: 'Passwords do not match',
  passwordTooShort: 'Password must be at least 6 characters long',
  cannotChangeOwnAdmin: 'You cannot change your own admin status',
  cannotDeleteOwnAccount: 'You cannot delete your own account',
  cannotChangeOwnRole: 'You cannot change your own role',
  authenticationFailed: 'Authentication failed',
  invalidCredentials: 'Invalid email or password',
  emailTaken: 'An account with this email already exists',
  usernameTaken: 'This username is already taken',
  tooManyAttempts: 'Too many sign-in attempts. Please try again later.',
  userNotFound: 'User not found',
  quickLoginDisabled: 'Not found',
  quickLoginDemoOnly: 'Quick sign-in is available only for the demo accounts',
  oidcNotConfigured: 'Sign-in with this provider is not configured on this site.',
  oidcUnavailable: 'Sign-in with this provider is unavailable right now. Please try again later.',
  oidcFailed: 'Sign-in with this provider could not be completed. Please try again.',
  oidcEmailRequired: 'Your account at this provider must have a verified email address to sign in here.',
  teacherOrAdminRequired: 'Access denied. Admin or teacher privileges required.',
} as const;

export const PASSWORD_MIN_LENGTH = 6;
/** Sign-in throttling: this many failures within the window lock the account/address for the rest of it. */
export const LOGIN_MAX_FAILURES = 5;
export const LOGIN_WINDOW_SECONDS = 15 * 60;

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
  cannotSuspendOwnAccount: 'You cannot suspend your own account',
  authenticationFailed: 'Authentication failed',
  invalidCredentials: 'Invalid email or password',
  emailTaken: 'An account with this email already exists',
  usernameTaken: 'This username is already taken',
  tooManyAttempts: 'Too many sign-in attempts. Please try again later.',
  tooManyRegistrations: 'Too many sign-ups from this network. Please try again later.',
  userNotFound: 'User not found',
  quickLoginDisabled: 'Not found',
  quickLoginDemoOnly: 'Quick sign-in is available only for the demo teacher and student accounts',
  crossSiteRefused: 'Cross-site request refused',
  oidcNotConfigured: 'Sign-in with this provider is not configured on this site.',
  oidcUnavailable: 'Sign-in with this provider is unavailable right now. Please try again later.',
  oidcFailed: 'Sign-in with this provider could not be completed. Please try again.',
  oidcEmailRequired: 'Your account at this provider must have a verified email address to sign in here.',
  teacherOrAdminRequired: 'Access denied. Admin or teacher privileges required.',
} as const;

export const PASSWORD_MIN_LENGTH = 6;
/**
 * Sign-in throttling delays rather than locks (OWASP). Per (account, address) pair: this many failures are free,
 * then each further attempt from the pair waits LOGIN_FIRST_DELAY_SECONDS, doubling up to LOGIN_MAX_DELAY_SECONDS.
 * A success from the pair starts it afresh; otherwise its failures are remembered for LOGIN_PAIR_MEMORY_SECONDS.
 */
export const LOGIN_FREE_FAILURES = 3;
export const LOGIN_FIRST_DELAY_SECONDS = 1;
export const LOGIN_MAX_DELAY_SECONDS = 15 * 60;
export const LOGIN_PAIR_MEMORY_SECONDS = 24 * 60 * 60;
/** The window of the per-address and per-account ceilings below. */
export const LOGIN_WINDOW_SECONDS = 15 * 60;
/** Failures per address per window: far above a class behind a school's one address, far below a spray. */
export const LOGIN_MAX_FAILURES_PER_ADDRESS = 100;
/** Failures per account per window from all addresses together, against guessing spread over many addresses. */
export const LOGIN_MAX_FAILURES_PER_ACCOUNT = 50;
/** How long a pair that signed in stays exempt from the per-account ceiling. */
export const LOGIN_KNOWN_PAIR_SECONDS = 30 * 24 * 60 * 60;
/** Registrations per address per window: a class of 35 signing up behind one address stays well below it. */
export const REGISTER_MAX_PER_ADDRESS = 100;
export const REGISTER_WINDOW_SECONDS = 60 * 60;

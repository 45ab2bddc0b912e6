import { z } from 'zod';
import { PASSWORD_MIN_LENGTH, IdentityMessages } from './messages';

export const roleSchema = z.enum(['student', 'teacher']);
export type Role = z.infer<typeof roleSchema>;

/** The user as every client sees it. Never carries the password. */
export const userSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  username: z.string(),
  email: z.string(),
  role: roleSchema,
  approved: z.boolean(),
  isAdmin: z.boolean(),
  profileImage: z.string().nullable(),
  createdAt: z.string(),
});
export type User = z.infer<typeof userSchema>;

const trimmed = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

export const emailSchema = z
  .string({ error: 'Email is required' })
  .trim()
  .toLowerCase()
  .min(1, 'Email is required')
  .max(254, 'Email must be at most 254 characters')
  .email('Please enter a valid email address');

export const loginRequestSchema = z.object({
  email: emailSchema,
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(1024),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const registerRequestSchema = z.object({
  name: trimmed('Full name', 120),
  username: trimmed('Username', 40).regex(
    /^[A-Za-z0-9._-]+$/,
    'Username may contain only letters, digits, dots, hyphens and underscores',
  ),
  email: emailSchema,
  password: z
    .string({ error: 'Password is required' })
    .min(PASSWORD_MIN_LENGTH, IdentityMessages.passwordTooShort)
    .max(1024, 'Password must be at most 1024 characters'),
  role: roleSchema.default('student'),
});
export type RegisterRequest = z.input<typeof registerRequestSchema>;

export const approvalRequestSchema = z.object({
  approved: z.boolean({ error: 'approved must be true or false' }),
});
export const roleRequestSchema = z.object({ role: roleSchema });
export const adminFlagRequestSchema = z.object({
  isAdmin: z.boolean({ error: 'isAdmin must be true or false' }),
});
export const resetPasswordRequestSchema = z.object({
  newPassword: z
    .string({ error: IdentityMessages.passwordTooShort })
    .min(PASSWORD_MIN_LENGTH, IdentityMessages.passwordTooShort)
    .max(1024, 'Password must be at most 1024 characters'),
});

/** The demo shortcuts offer the teacher and the student (spec), never the administrator. */
export const quickLoginRequestSchema = z.object({
  email: emailSchema.optional(),
  type: z.enum(['teacher', 'student']).optional(),
});

export const usersListResponseSchema = z.array(userSchema);

/** GET /api/auth/sign-in-methods: email and password always; the third-party link only where a provider is configured. */
export const signInMethodsSchema = z.object({ password: z.literal(true), thirdParty: z.boolean() });
export type SignInMethods = z.infer<typeof signInMethodsSchema>;

/** What a signed session token says about its holder; verified locally by every service. */
export const sessionClaimsSchema = z.object({
  sub: z.string().uuid(),
  sid: z.string(),
  /** When the session began (seconds since epoch): copied on every refresh, so its absolute lifetime cannot be extended. */
  sst: z.number().int(),
  tv: z.number().int(),
  role: roleSchema,
  approved: z.boolean(),
  isAdmin: z.boolean(),
  name: z.string(),
  username: z.string(),
  email: z.string(),
});
export type SessionClaims = z.infer<typeof sessionClaimsSchema>;

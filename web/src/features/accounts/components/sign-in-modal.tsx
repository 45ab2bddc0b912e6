import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import {
  IdentityMessages,
  loginRequestSchema,
  registerRequestSchema,
  type Role,
} from '@district/contracts/identity';
import { Alert, Button, Modal, SelectField, TextField, buttonClasses, useToast } from '@/components/ui';
import { THIRD_PARTY_SIGN_IN_URL } from '@/config/constants';
import { ShellMessages } from '@/config/messages';
import { errorMessage } from '@/lib/api-client';
import { useSession } from '@/lib/auth';
import { useSignInDialog } from '@/lib/sign-in-dialog';
import { useThirdPartySignIn } from '@/lib/sign-in-methods';

type FieldErrors = Partial<Record<'name' | 'username' | 'role' | 'email' | 'password', string>>;

const emptyForm = { name: '', username: '', role: 'student' as Role, email: '', password: '' };

/** First message per field, from a zod issue list. */
function fieldErrors(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of issues) {
    const key = String(issue.path[0]) as keyof FieldErrors;
    out[key] ??= issue.message;
  }
  return out;
}

/**
 * The sign-in modal (spec sections 2 and 8): Sign In or Create Account with a toggle between them and a
 * third-party sign-in link (only where the site has a provider: ADR 0034). A failure shows the server's message,
 * else 'Authentication failed'. Opened with a `returnTo` (a lesson's Read More), it goes there once signed in.
 */
export function SignInModal() {
  const dialog = useSignInDialog();
  const thirdParty = useThirdPartySignIn();
  const navigate = useNavigate();
  const { login, register } = useSession();
  const { toast } = useToast();
  const [form, setForm] = useState(emptyForm);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const isSignUp = dialog.mode === 'signup';

  const reset = () => {
    setForm(emptyForm);
    setErrors({});
    setFormError(null);
  };

  const close = () => {
    if (submitting) return;
    reset();
    dialog.close();
  };

  const toggle = () => {
    setErrors({});
    setFormError(null);
    dialog.setMode(isSignUp ? 'signin' : 'signup');
  };

  const update = (field: keyof typeof emptyForm) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setForm((f) => ({ ...f, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFormError(null);
    const parsed = isSignUp
      ? registerRequestSchema.safeParse(form)
      : loginRequestSchema.safeParse({ email: form.email, password: form.password });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues));
      return;
    }
    setErrors({});
    setSubmitting(true);
    try {
      if (isSignUp) {
        await register(registerRequestSchema.parse(form));
        toast({ type: 'success', message: ShellMessages.registerSuccess });
      } else {
        await login(loginRequestSchema.parse({ email: form.email, password: form.password }));
        toast({ type: 'success', message: ShellMessages.loginSuccess });
      }
      const { returnTo } = dialog;
      reset();
      dialog.close();
      if (returnTo) void navigate(returnTo);
    } catch (err) {
      setFormError(errorMessage(err, IdentityMessages.authenticationFailed));
    } finally {
      setSubmitting(false);
    }
  };

  const title = isSignUp ? 'Create Account' : 'Sign In';

  return (
    <Modal
      open={dialog.isOpen}
      onClose={close}
      title={title}
      description={
        isSignUp
          ? 'Join your school community. An administrator approves new accounts.'
          : 'Welcome back. Sign in to continue.'
      }
    >
      <form noValidate onSubmit={onSubmit} className="space-y-4" aria-label={title}>
        {formError ? <Alert tone="error">{formError}</Alert> : null}

        {isSignUp ? (
          <>
            <TextField
              label="Full Name"
              name="name"
              autoComplete="name"
              value={form.name}
              onChange={update('name')}
              error={errors.name}
              required
            />
            <TextField
              label="Username"
              name="username"
              autoComplete="username"
              value={form.username}
              onChange={update('username')}
              error={errors.username}
              required
            />
            <SelectField
              label="Role"
              name="role"
              value={form.role}
              onChange={update('role')}
              error={errors.role}
              required
            >
              <option value="student">Student</option>
              <option value="teacher">Teacher</option>
            </SelectField>
          </>
        ) : null}

        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          value={form.email}
          onChange={update('email')}
          error={errors.email}
          required
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete={isSignUp ? 'new-password' : 'current-password'}
          value={form.password}
          onChange={update('password')}
          error={errors.password}
          required
        />

        <Button type="submit" className="w-full" size="lg" loading={submitting}>
          {title}
        </Button>

        {thirdParty ? (
          <>
            <div className="relative py-1 text-center text-xs uppercase tracking-wide text-slate-500">
              <span aria-hidden="true" className="absolute inset-x-0 top-1/2 h-px bg-slate-200" />
              <span className="relative bg-white px-2">or</span>
            </div>

            <a href={THIRD_PARTY_SIGN_IN_URL} className={buttonClasses('outline', 'lg', 'w-full')}>
              <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5">
                <path
                  fill="#4285F4"
                  d="M22.5 12.3c0-.8-.1-1.5-.2-2.2H12v4.2h5.9a5 5 0 0 1-2.2 3.3v2.7h3.5c2.1-1.9 3.3-4.7 3.3-8Z"
                />
                <path
                  fill="#34A853"
                  d="M12 23c3 0 5.5-1 7.3-2.7l-3.5-2.7c-1 .7-2.3 1.1-3.8 1.1-2.9 0-5.4-2-6.3-4.6H2.1v2.8A11 11 0 0 0 12 23Z"
                />
                <path fill="#FBBC05" d="M5.7 14.1a6.6 6.6 0 0 1 0-4.2V7.1H2.1a11 11 0 0 0 0 9.8l3.6-2.8Z" />
                <path
                  fill="#EA4335"
                  d="M12 5.4c1.6 0 3.1.6 4.2 1.7l3.2-3.2A11 11 0 0 0 2.1 7.1l3.6 2.8C6.6 7.3 9.1 5.4 12 5.4Z"
                />
              </svg>
              Continue with Google
            </a>
          </>
        ) : null}

        <p className="text-center text-sm text-slate-600">
          {isSignUp ? 'Already have an account?' : "Don't have an account?"}{' '}
          <button
            type="button"
            onClick={toggle}
            className="font-semibold text-brand-700 underline-offset-2 hover:underline"
          >
            {isSignUp ? 'Sign in instead' : 'Create one'}
          </button>
        </p>
      </form>
    </Modal>
  );
}

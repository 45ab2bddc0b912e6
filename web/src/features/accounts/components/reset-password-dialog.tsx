import { useRef, useState, type FormEvent } from 'react';
import { IdentityMessages, PASSWORD_MIN_LENGTH, type User } from '@district/contracts/identity';
import { Alert, Button, Modal, TextField, useToastMutation } from '@/components/ui';
import { errorMessage } from '@/lib/api-client';
import { UserAdminMessages } from '../accounts.constants';
import { useResetPassword } from '../api/users';

/** Spec section 5: the two entries must match, then at least 6 characters. */
export function validateNewPassword(password: string, confirm: string): string | null {
  if (password !== confirm) return IdentityMessages.passwordsDoNotMatch;
  if (password.length < PASSWORD_MIN_LENGTH) return IdentityMessages.passwordTooShort;
  return null;
}

export function ResetPasswordDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const reset = useToastMutation(useResetPassword(), {
    success: UserAdminMessages.passwordResetDone,
    error: UserAdminMessages.passwordResetFailed,
    log: 'Resetting the password failed',
  });
  const firstField = useRef<HTMLInputElement>(null);

  const close = () => {
    if (reset.isPending) return;
    setPassword('');
    setConfirm('');
    setError(null);
    onClose();
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!user) return;
    const problem = validateNewPassword(password, confirm);
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    const outcome = await reset.run({ id: user.id, newPassword: password });
    if (!outcome.ok) {
      setError(errorMessage(outcome.error, UserAdminMessages.passwordResetFailed));
      return;
    }
    setPassword('');
    setConfirm('');
    onClose();
  };

  return (
    <Modal
      open={user !== null}
      onClose={close}
      title="Reset Password"
      description={user ? `Set a new password for ${user.name} (${user.email}).` : undefined}
      initialFocusRef={firstField}
    >
      <form noValidate onSubmit={onSubmit} className="space-y-4" aria-label="Reset Password">
        {error ? <Alert tone="error">{error}</Alert> : null}
        <TextField
          ref={firstField}
          label="New Password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
        />
        <TextField
          label="Confirm Password"
          type="password"
          autoComplete="new-password"
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
        />
        <div className="flex justify-end gap-2 pt-2">
          <Button variant="outline" onClick={close} disabled={reset.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={reset.isPending}>
            Reset Password
          </Button>
        </div>
      </form>
    </Modal>
  );
}

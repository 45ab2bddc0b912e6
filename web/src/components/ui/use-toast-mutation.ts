import type { UseMutationResult } from '@tanstack/react-query';
import { errorMessage } from '@/lib/api-client';
import { useToast } from './toast';

export interface ToastMutationMessages<TData, TVariables> {
  /** The spec's success toast, or nothing when the screen shows success some other way. */
  success?: string | ((data: TData, variables: TVariables) => string);
  /**
   * The error toast: a string is the spec's fallback, shown unless the server sent its own JSON `message`; a
   * function decides from the error (e.g. a fixed spec text, or 'Error: {message}'; null for no toast). Omitted
   * where the spec shows the failure in place (a banner, the form), which the caller does from the outcome.
   */
  error?: string | ((error: unknown, variables: TVariables) => string | null);
  /** A heading above the error toast's text (e.g. 'Failed to delete audio list' over the server's reason). */
  errorTitle?: string;
  /** Logged with the error on the console (the spec: failures are also logged). */
  log: string;
}

export type MutationOutcome<TData> = { ok: true; data: TData } | { ok: false; error: unknown };

export type ToastMutation<TData, TError, TVariables, TContext> = UseMutationResult<
  TData,
  TError,
  TVariables,
  TContext
> & {
  /** Runs the mutation and toasts the outcome; never rejects, so a caller just reads `ok`. */
  run: (variables: TVariables) => Promise<MutationOutcome<TData>>;
};

/**
 * A mutation (from a feature's api file, which keeps its cache updates) whose outcome is a toast in the spec's
 * words: the success text, or the server's message, else the spec's fallback. One place for what about twenty
 * screens wrote by hand as try / toast / catch / console.error / toast.
 */
export function useToastMutation<TData, TError, TVariables, TContext>(
  mutation: UseMutationResult<TData, TError, TVariables, TContext>,
  messages: ToastMutationMessages<TData, TVariables>,
): ToastMutation<TData, TError, TVariables, TContext> {
  const { toast } = useToast();
  const run = async (variables: TVariables): Promise<MutationOutcome<TData>> => {
    try {
      const data = await mutation.mutateAsync(variables);
      const { success } = messages;
      if (success !== undefined) {
        toast({
          type: 'success',
          message: typeof success === 'function' ? success(data, variables) : success,
        });
      }
      return { ok: true, data };
    } catch (error) {
      console.error(messages.log, error);
      const { error: text } = messages;
      const message =
        text === undefined
          ? null
          : typeof text === 'function'
            ? text(error, variables)
            : errorMessage(error, text);
      if (message) toast({ type: 'error', title: messages.errorTitle, message });
      return { ok: false, error };
    }
  };
  return { ...mutation, run };
}

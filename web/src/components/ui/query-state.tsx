import type { ReactNode } from 'react';
import { errorMessage } from '@/lib/api-client';
import { Alert } from './alert';
import { Button } from './button';
import { Spinner } from './spinner';

/** The part of a TanStack query result a screen's states depend on. */
export interface QueryStateSource<T> {
  data: T | undefined;
  error: unknown;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  refetch: () => Promise<unknown>;
}

/**
 * The retry button's words. The classroom spec's panels say 'Try Again'; the blog's screens (and their tests and
 * journeys) have always said 'Try again', and the invite list inside the chatroom dialog 'Retry'. Nothing else is
 * allowed, so a screen cannot drift to yet another wording.
 */
export type RetryLabel = 'Try Again' | 'Try again' | 'Retry';

export interface QueryErrorView {
  error: unknown;
  /** The retry button (it refetches, and is busy while the new request runs), placed where the screen wants it. */
  retry: (className?: string, size?: 'sm' | 'md') => ReactNode;
}

export interface QueryStateProps<T> {
  query: QueryStateSource<T>;
  /** While the first answer is on its way: a large spinner announcing this label. */
  loading?: string;
  /** Instead of the spinner, the screen's own placeholder (a skeleton, or visible text). */
  loadingView?: ReactNode;
  /** The failure in a red alert: this heading (optional) ... */
  errorTitle?: string;
  /**
   * ... and this text: a string is the fallback for the server's JSON `message` (shown when the server sent one);
   * a function decides from the error (e.g. 401 and 403 in the spec's words).
   */
  errorText?: string | ((error: unknown) => string);
  /** Instead of the alert, the screen's own error panel around the retry button. */
  errorView?: (view: QueryErrorView) => ReactNode;
  retryLabel?: RetryLabel;
  /** False where the spec's text asks for a page refresh instead (the comments section). */
  retry?: boolean;
  /** Extra classes for the error alert (e.g. a margin). */
  className?: string;
  /** With `empty`: when the answer counts as empty (default: an empty array). */
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}

function defaultIsEmpty(data: unknown): boolean {
  return Array.isArray(data) && data.length === 0;
}

/**
 * A screen's fetched section in its four states: loading, failed (with a retry that refetches), empty, loaded.
 * A failed background refetch keeps the last answer on screen; only a failure with nothing to show is an error.
 */
export function QueryState<T>({
  query,
  loading = 'Loading…',
  loadingView,
  errorTitle,
  errorText,
  errorView,
  retryLabel = 'Try Again',
  retry = true,
  className,
  isEmpty = defaultIsEmpty,
  empty,
  children,
}: QueryStateProps<T>) {
  if (query.isPending && query.data === undefined) {
    return (
      loadingView ?? (
        <div className="flex justify-center py-16">
          <Spinner size="lg" label={loading} />
        </div>
      )
    );
  }

  if (query.isError && query.data === undefined) {
    const error = query.error;
    const retryButton = (buttonClass?: string, size: 'sm' | 'md' = 'md') => (
      <Button
        variant="outline"
        size={size}
        className={buttonClass}
        loading={query.isFetching}
        onClick={() => void query.refetch()}
      >
        {retryLabel}
      </Button>
    );
    if (errorView) return errorView({ error, retry: retryButton });
    const text =
      typeof errorText === 'function'
        ? errorText(error)
        : errorText === undefined
          ? undefined
          : errorMessage(error, errorText);
    return (
      <Alert tone="error" title={errorTitle} className={className}>
        {text ? <p>{text}</p> : null}
        {retry ? retryButton('mt-3', 'sm') : null}
      </Alert>
    );
  }

  // Neither pending nor failed, yet no answer: a query the screen has not enabled; nothing to show yet.
  if (query.data === undefined) return null;
  if (empty !== undefined && isEmpty(query.data)) return empty;
  return children(query.data);
}

// Test-only: renders one tool page with the providers it uses (toasts, session, sign-in dialog, router),
// with GET /api/auth/me answered by the stubbed network, and waits until the session is known.
import type { ReactElement } from 'react';
import { render, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { expect, vi } from 'vitest';
import type { User } from '@district/contracts/identity';
import { ToastProvider } from '@/components/ui';
import { SessionProvider, useSession } from '@/lib/auth';
import { SignInDialogProvider } from '@/lib/sign-in-dialog';
import { stubFetch } from '@/testing/fetch-stub';

function SessionState() {
  const { loading } = useSession();
  const location = useLocation();
  return (
    <output
      data-testid="harness"
      data-session={loading ? 'loading' : 'ready'}
      data-path={location.pathname}
      hidden
    />
  );
}

export async function renderTool(
  page: ReactElement,
  { user = null, path = '/' }: { user?: User | null; path?: string } = {},
) {
  const fetch = stubFetch();
  fetch.on(
    'GET',
    '/api/auth/me',
    user ? { json: user } : { status: 401, json: { statusCode: 401, message: 'Unauthorized' } },
  );
  const events = userEvent.setup({
    advanceTimers: (ms) => (vi.isFakeTimers() ? vi.advanceTimersByTime(ms) : undefined),
  });
  const result = render(
    <MemoryRouter initialEntries={[path]}>
      <ToastProvider>
        <SessionProvider>
          <SignInDialogProvider>
            <SessionState />
            <Routes>
              <Route path={path} element={page} />
              <Route path="*" element={<p>Elsewhere</p>} />
            </Routes>
          </SignInDialogProvider>
        </SessionProvider>
      </ToastProvider>
    </MemoryRouter>,
  );
  await waitFor(() => expect(result.getByTestId('harness')).toHaveAttribute('data-session', 'ready'));
  const currentPath = () => result.getByTestId('harness').getAttribute('data-path');
  return { ...result, user: events, fetch, currentPath };
}

/** Captures what downloadBytes saves: the Blob and file name of every programmatic link click. */
export function captureDownloads() {
  const files: { name: string; blob: Blob }[] = [];
  const blobs = new Map<string, Blob>();
  let n = 0;
  // jsdom has no object URLs; these stand in for the browser's, remembering which Blob each URL names.
  Object.defineProperty(URL, 'createObjectURL', {
    configurable: true,
    writable: true,
    value: (obj: Blob) => {
      const url = `blob:test/${n++}`;
      blobs.set(url, obj);
      return url;
    },
  });
  Object.defineProperty(URL, 'revokeObjectURL', {
    configurable: true,
    writable: true,
    value: () => undefined,
  });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.href);
    if (blob) files.push({ name: this.download, blob });
  });
  return files;
}

export async function blobBytes(blob: Blob): Promise<Uint8Array> {
  return new Uint8Array(await blob.arrayBuffer());
}

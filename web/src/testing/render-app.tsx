import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
// Not `react-router/dom` as in the app: under Vitest, Node would load that one's `react-router` as a second copy
// (its ES build, next to the CommonJS one imported here) that does not share the router context.
import { createMemoryRouter, RouterProvider } from 'react-router';
import { expect } from 'vitest';
import type { User } from '@district/contracts/identity';
import { AppProvider } from '@/app/provider';
import { routes } from '@/app/router';
import { INITIAL_DATA_ELEMENT_ID, seedInitialData } from '@/features/blog/api/initial-data';
import { createQueryClient } from '@/lib/react-query';
import { stubFetch, type FetchStub } from './fetch-stub';

export interface RenderAppOptions {
  /** Who GET /api/auth/me says is signed in; null answers 401. Omit to script /me yourself. */
  user?: User | null;
  /** Prepare extra answers before the app starts. */
  setup?: (fetch: FetchStub) => void;
  /**
   * The first HTML's embedded data (the text of `<script type="application/json" id="initial-data">`, as the
   * gateway writes it); the app seeds its cache from it at start, as App does.
   */
  embeddedJson?: string;
}

/**
 * Renders the whole app (providers, session bootstrap, route table, layout) at `path`, with fetch
 * stubbed, and waits until the session spinner is gone.
 */
export async function renderApp(path: string, options: RenderAppOptions = {}) {
  const fetch = stubFetch();
  fetch.on('GET', '/api/posts/public', { json: [] });
  // A site with a third-party provider (the spec's behaviour); tests of a site without one script their own answer.
  fetch.on('GET', '/api/auth/sign-in-methods', { json: { password: true, thirdParty: true } });
  if (options.user !== undefined) {
    fetch.on(
      'GET',
      '/api/auth/me',
      options.user
        ? { json: options.user }
        : { status: 401, json: { statusCode: 401, message: 'Unauthorized' } },
    );
  }
  options.setup?.(fetch);

  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = createQueryClient({ retry: false });
  if (options.embeddedJson !== undefined) {
    const element = document.createElement('script');
    element.type = 'application/json';
    element.id = INITIAL_DATA_ELEMENT_ID;
    element.textContent = options.embeddedJson;
    document.body.append(element);
    seedInitialData(queryClient);
  }
  const user = userEvent.setup();
  const result = render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  await waitFor(() => expect(screen.queryByTestId('full-page-spinner')).not.toBeInTheDocument());
  return { ...result, fetch, router, queryClient, user };
}

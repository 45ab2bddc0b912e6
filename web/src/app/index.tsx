import { useState } from 'react';
import { BrowserRouter, useLocation, useRoutes } from 'react-router';
import { seedInitialData } from '@/features/blog/api/initial-data';
import { createQueryClient } from '@/lib/react-query';
import { AppProvider } from './provider';
import { preloadRouteCode, routes } from './router';
import { RouteErrorBoundary } from './routes/route-error';

function AppRoutes() {
  const location = useLocation();
  const element = useRoutes(routes);
  return <RouteErrorBoundary locationKey={location.key}>{element}</RouteErrorBoundary>;
}

/**
 * The browser app. The declarative <BrowserRouter> (not createBrowserRouter's data router): the app loads no
 * data through the router, and the data router's code is about 17 KB gzipped of the home route's budget
 * (ADR 0023). Tests render the same route table in a memory data router (src/testing/render-app.tsx).
 */
export function App() {
  // The lessons the gateway embedded in the first HTML (ADR 0023): in the cache before the first render.
  const [queryClient] = useState(() => {
    const client = createQueryClient();
    seedInitialData(client);
    // The opened page's code loads while the session is checked, not after it.
    preloadRouteCode(window.location.pathname);
    return client;
  });
  return (
    <AppProvider queryClient={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProvider>
  );
}

import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { Button, buttonClasses } from '@/components/ui';

/** Last line of defence for a route that throws while rendering (or whose code fails to load after a deploy). */
export function RouteErrorPage() {
  const error = useRouteError();
  useEffect(() => console.error('Route error', error), [error]);
  return (
    <div className="flex min-h-screen items-center justify-center bg-slate-50 px-4">
      <section aria-labelledby="route-error-title" className="max-w-md text-center">
        <h1 id="route-error-title" className="text-2xl font-bold text-slate-900">
          Something went wrong
        </h1>
        <p className="mt-3 text-slate-600">This page could not be displayed. Reloading usually fixes it; if not, please try again later.</p>
        <div className="mt-6 flex justify-center gap-3">
          <Button onClick={() => window.location.reload()}>Reload page</Button>
          <a href="/" className={buttonClasses('outline')}>
            Go Home
          </a>
        </div>
      </section>
    </div>
  );
}

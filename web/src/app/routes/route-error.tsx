import { Component, useEffect, type ReactNode } from 'react';
import { useRouteError } from 'react-router';
import { Button, buttonClasses } from '@/components/ui';

/** The route table's errorElement (a data router, as the tests use): the error comes from the router. */
export function DataRouteErrorPage() {
  return <RouteErrorPage error={useRouteError()} />;
}

/** Last line of defence for a route that throws while rendering (or whose code fails to load after a deploy). */
export function RouteErrorPage({ error }: { error: unknown }) {
  useEffect(() => console.error('Route error', error), [error]);
  return (
    <div className="flex min-h-screen items-center justify-center bg-slate-50 px-4">
      <section aria-labelledby="route-error-title" className="max-w-md text-center">
        <h1 id="route-error-title" className="text-2xl font-bold text-slate-900">
          Something went wrong
        </h1>
        <p className="mt-3 text-slate-600">
          This page could not be displayed. Reloading usually fixes it; if not, please try again later.
        </p>
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

interface BoundaryProps {
  children: ReactNode;
  /** A new location clears the error, so the links on the error page work. */
  locationKey: string;
}

/** The app's own boundary around its routes (the declarative router has no errorElement): shows RouteErrorPage. */
export class RouteErrorBoundary extends Component<BoundaryProps, { error: unknown; locationKey: string }> {
  override state = { error: undefined as unknown, locationKey: this.props.locationKey };

  static getDerivedStateFromError(error: unknown) {
    return { error: error ?? new Error('Unknown route error') };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: { error: unknown; locationKey: string }) {
    return props.locationKey === state.locationKey
      ? null
      : { error: undefined, locationKey: props.locationKey };
  }

  override render() {
    return this.state.error === undefined ? this.props.children : <RouteErrorPage error={this.state.error} />;
  }
}

import { Suspense, type ReactNode } from 'react';
import { Outlet } from 'react-router';
import { Spinner } from '@/components/ui';
import { Footer } from './footer';
import { DocumentTitle } from './logo';
import { Navbar } from './navbar';

/** Shown while a lazily loaded route's code arrives; the navbar and footer stay in place. */
export function RouteFallback() {
  return (
    <div className="flex flex-1 items-center justify-center py-24">
      <Spinner size="lg" label="Loading page…" />
    </div>
  );
}

/** Every page: skip link, navbar above, footer below (spec section 1). */
export function Layout({ children }: { children?: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main-content"
        className="sr-only z-50 rounded-md bg-white px-4 py-2 font-semibold text-brand-800 focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
      >
        Skip to content
      </a>
      <Navbar />
      {/* At least the screen below the navbar (h-16): the footer starts below the fold, so a page's content
          arriving after its first paint never pushes a visible footer (a layout shift, issue #15). */}
      <main
        id="main-content"
        tabIndex={-1}
        className="flex min-h-[calc(100svh-4rem)] flex-1 flex-col focus:outline-none"
      >
        <Suspense fallback={<RouteFallback />}>{children ?? <Outlet />}</Suspense>
      </main>
      <Footer />
    </div>
  );
}

/** Standard page width and padding, with an optional heading block. */
export function PageContainer({ children, className = '' }: { children: ReactNode; className?: string }) {
  return <div className={`mx-auto w-full max-w-7xl px-4 py-8 sm:px-6 lg:px-8 ${className}`}>{children}</div>;
}

export function PageHeader({
  title,
  description,
  actions,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
      {typeof title === 'string' ? <DocumentTitle title={title} /> : null}
      <div className="min-w-0">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
        {description ? <p className="mt-1 max-w-2xl text-slate-600">{description}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}

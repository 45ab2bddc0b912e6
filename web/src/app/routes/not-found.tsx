import { ButtonLink } from '@/components/ui';
import { DocumentTitle } from '@/components/layout';
import { ShellMessages } from '@/config/messages';

export function NotFoundPage() {
  return (
    <div className="flex flex-1 items-center justify-center px-4 py-20">
      <DocumentTitle title={ShellMessages.notFoundTitle} />
      <section aria-labelledby="not-found-title" className="max-w-lg text-center">
        <p className="text-6xl font-extrabold tracking-tight text-brand-600 sm:text-7xl" aria-hidden="true">
          404
        </p>
        <h1 id="not-found-title" className="mt-2 text-3xl font-bold text-slate-900">
          {ShellMessages.notFoundTitle}
        </h1>
        <p className="mt-3 text-slate-600">The page you are looking for does not exist or has been moved.</p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <ButtonLink to="/">Go Home</ButtonLink>
          <ButtonLink to="/blog" variant="outline">
            Browse Posts
          </ButtonLink>
        </div>
      </section>
    </div>
  );
}

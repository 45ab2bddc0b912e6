import { cn } from '@/lib/cn';

const sizes = { sm: 'size-4 border-2', md: 'size-8 border-[3px]', lg: 'size-12 border-4' } as const;

export function Spinner({
  size = 'md',
  label = 'Loading…',
  className,
}: {
  size?: keyof typeof sizes;
  label?: string;
  className?: string;
}) {
  return (
    <span role="status" className={cn('inline-flex items-center', className)}>
      <span
        aria-hidden="true"
        className={cn('animate-spin rounded-full border-brand-600 border-r-transparent', sizes[size])}
      />
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** Covers the viewport while the session is being established, so no screen flashes the wrong state. */
export function FullPageSpinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <div
      className="flex min-h-screen items-center justify-center bg-slate-50"
      data-testid="full-page-spinner"
    >
      <Spinner size="lg" label={label} />
    </div>
  );
}

import type { HTMLAttributes, ReactNode, TdHTMLAttributes, ThHTMLAttributes } from 'react';
import { cn } from '@/lib/cn';

/**
 * A data table that scrolls sideways on narrow phones instead of squashing its columns.
 *
 * `busy`: the rows shown are not the answer to what is asked yet (a filter changed and its first page is on its way,
 * the previous filter's rows kept as a placeholder): the table says so (`aria-busy`) and is dimmed, so they are not
 * taken for the new results.
 */
export function Table({
  caption,
  children,
  className,
  busy = false,
}: {
  caption?: ReactNode;
  children: ReactNode;
  className?: string;
  busy?: boolean;
}) {
  return (
    <div
      className={cn(
        'w-full overflow-x-auto rounded-xl border border-slate-200 bg-white transition-opacity',
        busy && 'opacity-50',
        className,
      )}
    >
      <table className="w-full min-w-[40rem] border-collapse text-left text-sm" aria-busy={busy || undefined}>
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        {children}
      </table>
    </div>
  );
}

export function TableHead({ className, ...rest }: HTMLAttributes<HTMLTableSectionElement>) {
  return (
    <thead
      className={cn('bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-600', className)}
      {...rest}
    />
  );
}

export function TableBody({ className, ...rest }: HTMLAttributes<HTMLTableSectionElement>) {
  return <tbody className={cn('divide-y divide-slate-100', className)} {...rest} />;
}

export function TableRow({ className, ...rest }: HTMLAttributes<HTMLTableRowElement>) {
  return <tr className={cn('align-middle hover:bg-slate-50/60', className)} {...rest} />;
}

export function TableHeaderCell({
  className,
  scope = 'col',
  ...rest
}: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th scope={scope} className={cn('px-4 py-3', className)} {...rest} />;
}

export function TableCell({ className, ...rest }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={cn('px-4 py-3 text-slate-700', className)} {...rest} />;
}

/** Shown inside a table body when there are no rows. */
export function TableEmpty({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={colSpan} className="px-4 py-10 text-center text-slate-500">
        {children}
      </td>
    </tr>
  );
}

import { isTeacherOrAdmin, type User } from '@/lib/auth';
import { formatFullDate } from '@/lib/format';

/** Approved teachers and admins create classroom material (spec §6); the server decides again on every call. */
export const isStaff = (user: User | null) => Boolean(user?.approved) && isTeacherOrAdmin(user);

/** 'March 5, 2025'; a plain calendar date (a plan's YYYY-MM-DD) is read as local, so it never shifts a day. */
export function formatDate(value: string): string {
  return formatFullDate(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00` : value) || value;
}

/** Spec §4: errors of the lesson plan and slide screens show in a dismissible red banner. */
export function ErrorBanner({ message, onDismiss }: { message: string; onDismiss: () => void }) {
  return (
    <div
      role="alert"
      className="mb-4 flex items-start justify-between gap-3 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800"
    >
      <p className="min-w-0 break-words font-medium">{message}</p>
      <button
        type="button"
        onClick={onDismiss}
        aria-label="Dismiss error"
        className="-m-1 shrink-0 rounded p-1 text-red-700 hover:bg-red-100 focus-visible:outline-2 focus-visible:outline-red-600"
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="size-4"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
        >
          <path d="M6 6l12 12M18 6 6 18" />
        </svg>
      </button>
    </div>
  );
}

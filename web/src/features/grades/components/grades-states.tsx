import { gradesFetchMessage } from '../api/grades';
import { GradeMessages } from '../grades.constants';

/** 'Loading quiz grades...' (spec §2), visible and announced. */
export function GradesLoading() {
  return (
    <div role="status" className="flex items-center justify-center gap-3 py-16 text-slate-600">
      <span
        aria-hidden="true"
        className="size-8 animate-spin rounded-full border-[3px] border-brand-600 border-r-transparent"
      />
      {GradeMessages.loading}
    </div>
  );
}

/**
 * The grade lists' states for QueryState: the visible loading text, and a failed fetch in the spec's words
 * (classroom-tools §8: 401, 403, the server's message, 'Failed to fetch grades', the network text) with Try Again.
 */
export const gradesQueryStates = {
  loadingView: <GradesLoading />,
  errorText: gradesFetchMessage,
  retryLabel: 'Try Again',
} as const;

import { Alert, Button } from '@/components/ui';
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

/** A failed grades fetch in the spec's words (§8 error catalogue), with Try Again. */
export function GradesErrorPanel({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <Alert tone="error" title={gradesFetchMessage(error)}>
      <Button variant="outline" size="sm" className="mt-2" onClick={onRetry}>
        Try Again
      </Button>
    </Alert>
  );
}

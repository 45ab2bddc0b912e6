import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Grade, GradeSummary, QuizKind } from '@district/contracts/assessment';
import { Button, ConfirmDialog, QueryState, SelectField, useToastMutation } from '@/components/ui';
import { LoadMore } from '@/components/ui/load-more';
import { PageContainer, PageHeader } from '@/components/layout';
import { cn } from '@/lib/cn';
import { rowsOf } from '@/lib/paging';
import { useMyClasses } from '@/lib/roster';
import { useConfirmedAction } from '@/lib/use-confirmed-action';
import {
  gradeDeleteMessage,
  useDeleteGrade,
  useGradePages,
  useGradeSummary,
  type GradeFilters,
} from '../api/grades';
import { downloadGradesCsv, gradesCsvFileName } from '../export/grades-csv';
import { studentsOf } from '../grade-stats';
import { GRADE_KINDS, GradeMessages } from '../grades.constants';
import { AccommodationForm } from './accommodation-form';
import { gradesQueryStates } from './grades-states';
import { GradesTable } from './grades-table';
import { ItemAnalysisPanel } from './item-analysis-panel';

function SummaryCard({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="mt-1 text-3xl font-bold text-slate-900">{value}</dd>
    </div>
  );
}

/**
 * The four cards (spec §2, §9: whole percent), from the server's summary of every result in scope. `busy`: a filter
 * changed and its summary is on its way, so the figures shown are the previous filter's (dimmed, aria-busy).
 */
function SummaryCards({ summary, busy = false }: { summary: GradeSummary; busy?: boolean }) {
  return (
    <dl
      className={cn('grid gap-4 sm:grid-cols-2 lg:grid-cols-4', busy && 'opacity-50')}
      aria-label="Summary"
      aria-busy={busy || undefined}
    >
      <SummaryCard label="Total Attempts" value={String(summary.totalAttempts)} />
      <SummaryCard label="Average Score" value={`${Math.round(summary.averageScore)}%`} />
      <SummaryCard label="Passed (>=70%)" value={String(summary.passed)} />
      <SummaryCard label="Pass Rate" value={`${Math.round(summary.passRate)}%`} />
    </dl>
  );
}

/**
 * 'Filter by Class' (ADR 0042): the caller's own classes; a class opened from its page (`?classId=`) that is not
 * among them (an administrator's) stays chosen. Absent where the caller has no class: the spec's screen.
 */
function ClassFilter({ classId, onChange }: { classId: string; onChange: (id: string) => void }) {
  const classes = useMyClasses();
  const mine = classes.data ?? [];
  if (mine.length === 0 && !classId) return null;
  const known = mine.some((c) => c.id === classId);
  return (
    <SelectField
      label="Filter by Class"
      value={classId}
      onChange={(e) => onChange(e.target.value)}
      className="max-w-sm"
    >
      <option value="">All my students</option>
      {classId && !known ? <option value={classId}>The class opened</option> : null}
      {mine.map((c) => (
        <option key={c.id} value={c.id}>
          {c.title}
        </option>
      ))}
    </SelectField>
  );
}

/**
 * /admin/quiz-grades-dashboard and /admin/text-quiz-grades-dashboard (classroom-tools §2, §6, §8, §9): summary cards,
 * Filter by Quiz, the results table with Delete; beyond the spec, a class filter, CSV export of what is shown, and
 * for one chosen quiz its item analysis and the accommodations form. The server filters, pages and sums over the
 * caller's scope (ADR 0042); the route guard lets only teachers and admins in, and the server decides again.
 */
function GradesDashboardPage({ kind }: { kind: QuizKind }) {
  const info = GRADE_KINDS[kind];
  const [params, setParams] = useSearchParams();
  const classId = (params.get('classId') ?? '').toLowerCase();
  const [quizId, setQuizId] = useState('');
  const scope: GradeFilters = classId ? { classId } : {};
  // The quiz filter's choices come from the summary without the quiz, so choosing one keeps the others listed.
  const scopeSummary = useGradeSummary(kind, scope);
  const quizzes = scopeSummary.data?.quizzes ?? [];
  const selected = quizzes.find((q) => q.id === quizId) ?? null;
  const filters: GradeFilters = selected ? { ...scope, quizId: selected.id } : scope;
  const summary = useGradeSummary(kind, filters);
  const grades = useGradePages(kind, filters);
  const deleteGrade = useToastMutation(useDeleteGrade(kind), {
    success: GradeMessages.gradeDeleted,
    error: gradeDeleteMessage,
    log: 'Quiz result delete failed',
  });

  const rows = useMemo(() => rowsOf(grades.data), [grades.data]);
  const shown = rows.items;
  // A filter changed and its first page is on its way: the rows are the previous filter's, kept in place.
  const stale = grades.isPlaceholderData;

  const remove = useConfirmedAction(async (grade: Grade) => {
    await deleteGrade.run(grade.id);
  });

  const chooseClass = (id: string) => {
    const next = new URLSearchParams(params);
    if (id) next.set('classId', id);
    else next.delete('classId');
    setParams(next, { replace: true });
    setQuizId('');
  };

  const exportCsv = () => downloadGradesCsv(shown, gradesCsvFileName(info.csvName, selected?.title ?? null));

  return (
    <PageContainer>
      <PageHeader
        title={info.heading}
        description="Student results, pass rates and item analysis."
        actions={
          grades.data ? (
            <Button variant="outline" onClick={exportCsv} disabled={shown.length === 0 || stale}>
              Export CSV
            </Button>
          ) : undefined
        }
      />

      <QueryState query={grades} {...gradesQueryStates}>
        {() => (
          <div className="space-y-6">
            <QueryState
              query={summary}
              loadingView={<p className="text-sm text-slate-500">Counting the results…</p>}
              errorText={(err) => `The summary could not be loaded: ${gradesQueryStates.errorText(err)}`}
              retry={false}
            >
              {(found) => <SummaryCards summary={found} busy={summary.isPlaceholderData} />}
            </QueryState>

            <div className="flex flex-wrap gap-4">
              <ClassFilter classId={classId} onChange={chooseClass} />
              <SelectField
                label="Filter by Quiz"
                value={selected ? selected.id : ''}
                onChange={(e) => setQuizId(e.target.value)}
                className="max-w-sm"
              >
                <option value="">{info.allQuizzes}</option>
                {quizzes.map((q) => (
                  <option key={q.id} value={q.id}>
                    {q.title}
                  </option>
                ))}
              </SelectField>
            </div>

            <div>
              <GradesTable
                grades={shown}
                caption={`${info.heading}: results`}
                empty={info.empty}
                showTime={kind === 'text'}
                onDelete={(g) => remove.ask(g)}
                busy={stale}
              />
              <LoadMore
                shown={shown.length}
                total={rows.total}
                hasMore={rows.hasMore}
                loading={grades.isFetchingNextPage}
                onLoadMore={() => void grades.fetchNextPage()}
                noun="results"
                busy={stale}
              />
            </div>

            {selected ? (
              <>
                <ItemAnalysisPanel
                  key={`analysis-${selected.id}-${classId}`}
                  kind={kind}
                  quizId={selected.id}
                  quizTitle={selected.title}
                  classId={classId || undefined}
                />
                <AccommodationForm
                  key={`accommodation-${selected.id}`}
                  kind={kind}
                  quizId={selected.id}
                  students={studentsOf(shown)}
                />
              </>
            ) : null}
          </div>
        )}
      </QueryState>

      <ConfirmDialog
        open={remove.target !== null}
        title="Delete quiz result"
        message={<p>{GradeMessages.deleteGradeConfirm}</p>}
        confirmLabel="Delete"
        busy={remove.busy}
        onConfirm={() => void remove.confirm()}
        onCancel={remove.cancel}
      />
    </PageContainer>
  );
}

export function AudioQuizGradesDashboardPage() {
  return <GradesDashboardPage kind="audio" />;
}

export function TextQuizGradesDashboardPage() {
  return <GradesDashboardPage kind="text" />;
}

import { useMemo, useState } from 'react';
import type { Grade, QuizKind } from '@district/contracts/assessment';
import { Button, ConfirmDialog, QueryState, SelectField, useToastMutation } from '@/components/ui';
import { PageContainer, PageHeader } from '@/components/layout';
import { useConfirmedAction } from '@/lib/use-confirmed-action';
import { gradeDeleteMessage, useDeleteGrade, useGrades } from '../api/grades';
import { downloadGradesCsv, gradesCsvFileName } from '../export/grades-csv';
import { quizzesOf, studentsOf, summarize } from '../grade-stats';
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
 * /admin/quiz-grades-dashboard and /admin/text-quiz-grades-dashboard (classroom-tools §2, §6, §8, §9): summary cards,
 * Filter by Quiz, the results table with Delete; beyond the spec, CSV export of what is shown, and for one chosen quiz
 * its item analysis and the accommodations form. The route guard lets only teachers and admins in; the server
 * decides again.
 */
function GradesDashboardPage({ kind }: { kind: QuizKind }) {
  const info = GRADE_KINDS[kind];
  const grades = useGrades(kind);
  const [quizId, setQuizId] = useState('');
  const deleteGrade = useToastMutation(useDeleteGrade(kind), {
    success: GradeMessages.gradeDeleted,
    error: gradeDeleteMessage,
    log: 'Quiz result delete failed',
  });

  const all = useMemo(() => grades.data ?? [], [grades.data]);
  const quizzes = useMemo(() => quizzesOf(all), [all]);
  const selected = quizzes.find((q) => q.id === quizId) ?? null;
  const shown = useMemo(
    () => (selected ? all.filter((g) => g.quizId === selected.id) : all),
    [all, selected],
  );
  const summary = summarize(shown);

  const remove = useConfirmedAction(async (grade: Grade) => {
    await deleteGrade.run(grade.id);
  });

  const exportCsv = () => downloadGradesCsv(shown, gradesCsvFileName(info.csvName, selected?.title ?? null));

  return (
    <PageContainer>
      <PageHeader
        title={info.heading}
        description="Student results, pass rates and item analysis."
        actions={
          grades.data ? (
            <Button variant="outline" onClick={exportCsv} disabled={shown.length === 0}>
              Export CSV
            </Button>
          ) : undefined
        }
      />

      <QueryState query={grades} {...gradesQueryStates}>
        {() => (
          <div className="space-y-6">
            <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" aria-label="Summary">
              <SummaryCard label="Total Attempts" value={String(summary.totalAttempts)} />
              <SummaryCard label="Average Score" value={`${summary.averageScore}%`} />
              <SummaryCard label="Passed (>=70%)" value={String(summary.passed)} />
              <SummaryCard label="Pass Rate" value={`${summary.passRate}%`} />
            </dl>

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

            <GradesTable
              grades={shown}
              caption={`${info.heading}: results`}
              empty={info.empty}
              showTime={kind === 'text'}
              onDelete={(g) => remove.ask(g)}
            />

            {selected ? (
              <>
                <ItemAnalysisPanel
                  key={`analysis-${selected.id}`}
                  kind={kind}
                  quizId={selected.id}
                  quizTitle={selected.title}
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

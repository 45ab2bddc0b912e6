import { useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import {
  LESSON_PLAN_PHASES,
  type LessonPlan,
  type LessonPlanEvaluatePhase,
  type LessonPlanPhase,
} from '@district/contracts/classroom';
import { Button } from '@/components/ui';
import { formatDate } from '../shared';
import { PLAN_TEXT_FIELDS } from './lesson-plan-model';

/**
 * On screen the printable page covers the app; in print only it is printed (the app, navbar and footer are hidden),
 * in black on white, phases kept whole where the page allows.
 */
const PRINT_CSS = `
@media print {
  body > *:not(.lesson-plan-print) { display: none !important; }
  .lesson-plan-print { position: static !important; overflow: visible !important; inset: auto !important; }
  .lesson-plan-print .no-print { display: none !important; }
  .lesson-plan-print section { break-inside: avoid; }
  @page { margin: 15mm; }
}`;

function Text({ value }: { value: string }) {
  return value.trim() === '' ? (
    <p className="text-slate-500">—</p>
  ) : (
    <p className="whitespace-pre-line break-words">{value}</p>
  );
}

/** A plan as a clean printable page (the "print a plan" of issue 13): every field, text only, no controls. */
export function PrintablePlan({ plan, onClose }: { plan: LessonPlan; onClose: () => void }) {
  const printButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    printButton.current?.focus();
    window.print();
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const meta: [string, string][] = [
    ['Teacher', plan.teacher],
    ['Date', plan.date ? formatDate(plan.date) : ''],
    ['Subject', plan.subject],
    ['Topic/Unit', plan.topic],
    ['Total Time', plan.totalTime],
  ];

  return createPortal(
    <div
      role="dialog"
      aria-modal="true"
      aria-labelledby="printable-plan-title"
      className="lesson-plan-print fixed inset-0 z-50 overflow-auto bg-white text-slate-900"
    >
      <style>{PRINT_CSS}</style>
      <div className="no-print sticky top-0 flex justify-end gap-2 border-b border-slate-200 bg-white px-6 py-3">
        <Button ref={printButton} size="sm" onClick={() => window.print()}>
          Print
        </Button>
        <Button size="sm" variant="outline" onClick={onClose}>
          Close
        </Button>
      </div>
      <article className="mx-auto max-w-3xl space-y-5 px-6 py-6 text-sm leading-relaxed">
        <header className="border-b-2 border-slate-900 pb-3">
          <p className="text-xs font-semibold uppercase tracking-widest">Lesson Plan</p>
          <h1 id="printable-plan-title" className="text-2xl font-bold">
            {plan.title}
          </h1>
          <dl className="mt-2 grid grid-cols-2 gap-x-6 gap-y-1 sm:grid-cols-3">
            {meta.map(([label, value]) => (
              <div key={label}>
                <dt className="inline font-semibold">{label}: </dt>
                <dd className="inline">{value || '—'}</dd>
              </div>
            ))}
          </dl>
        </header>
        {PLAN_TEXT_FIELDS.map((f) => (
          <section key={f.key} aria-label={f.label}>
            <h2 className="font-bold">{f.label}</h2>
            <Text value={plan[f.key]} />
          </section>
        ))}
        {LESSON_PLAN_PHASES.map((phase) => {
          const value = plan[phase.key] as LessonPlanPhase | LessonPlanEvaluatePhase;
          return (
            <section key={phase.key} aria-label={phase.label} className="rounded border border-slate-400 p-3">
              <h2 className="font-bold">
                {phase.label}
                {value.timeAllotted ? <span className="font-normal"> — {value.timeAllotted}</span> : null}
              </h2>
              <div className="mt-2 grid grid-cols-1 gap-3 sm:grid-cols-2">
                <div>
                  <h3 className="font-semibold">Teacher Will</h3>
                  <Text value={value.teacherWill} />
                </div>
                <div>
                  <h3 className="font-semibold">Students Will</h3>
                  <Text value={value.studentsWill} />
                </div>
              </div>
              {'instructionTypes' in value ? (
                <p className="mt-2">
                  <span className="font-semibold">Instruction Types: </span>
                  {value.instructionTypes.length ? value.instructionTypes.join(', ') : '—'}
                </p>
              ) : null}
            </section>
          );
        })}
        <section aria-label="Evaluation (Check for Understanding)">
          <h2 className="font-bold">Evaluation (Check for Understanding)</h2>
          <Text value={plan.evaluation} />
        </section>
        <section aria-label="Reflection">
          <h2 className="font-bold">Reflection</h2>
          <Text value={plan.reflection} />
        </section>
        <footer className="border-t border-slate-300 pt-2 text-xs text-slate-600">
          {plan.creatorName ? `Created by ${plan.creatorName}` : 'Created'}
          {plan.createdAt ? ` on ${formatDate(plan.createdAt)}` : ''}
        </footer>
      </article>
    </div>,
    document.body,
  );
}

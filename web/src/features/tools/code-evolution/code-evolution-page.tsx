import { useEffect, useId, useMemo, useReducer, useState } from 'react';
import { Button, Card, CardBody, CardHeader } from '@/components/ui';
import { PageContainer, PageHeader } from '@/components/layout';
import { cn } from '@/lib/cn';
import { EvolutionMessages, SAMPLE_STEPS, STEP_MS } from './evolution-samples';
import { addedLines, evolutionReducer, initialEvolutionState } from './evolution-state';

export default function CodeEvolutionPage() {
  const [state, dispatch] = useReducer(evolutionReducer, SAMPLE_STEPS, initialEvolutionState);
  const [custom, setCustom] = useState('');
  const customId = useId();
  const customHintId = useId();
  const step = state.steps[state.index];
  const previous = state.index > 0 ? state.steps[state.index - 1].code : '';
  const added = useMemo(() => addedLines(previous, step.code), [previous, step.code]);

  useEffect(() => {
    if (state.status !== 'playing') return;
    const timer = window.setTimeout(() => dispatch({ type: 'tick' }), STEP_MS);
    return () => window.clearTimeout(timer);
  }, [state.status, state.index]);

  // Spec: custom code must be non-empty; the button is disabled until it is, and the reducer ignores blanks too.
  const addCustom = () => {
    if (!custom.trim()) return;
    dispatch({ type: 'addCustom', code: custom });
    setCustom('');
  };

  const progress = ((state.index + 1) / state.steps.length) * 100;

  return (
    <PageContainer>
      <PageHeader title={EvolutionMessages.title} description={EvolutionMessages.description} />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,16rem)_minmax(0,1fr)]">
        <Card className="self-start">
          <CardHeader title={EvolutionMessages.timeline} />
          <CardBody>
            <ol className="space-y-1" aria-label={EvolutionMessages.timeline}>
              {state.steps.map((s, i) => (
                <li key={i}>
                  <button
                    type="button"
                    onClick={() => dispatch({ type: 'select', index: i })}
                    aria-current={i === state.index ? 'step' : undefined}
                    className={cn(
                      'flex w-full items-center gap-3 rounded-lg px-2 py-2 text-left text-sm',
                      i === state.index
                        ? 'bg-brand-50 font-semibold text-brand-800'
                        : 'text-slate-700 hover:bg-slate-50',
                    )}
                  >
                    <span
                      className={cn(
                        'flex size-6 shrink-0 items-center justify-center rounded-full text-xs font-bold',
                        i <= state.index ? 'bg-brand-700 text-white' : 'bg-slate-200 text-slate-600',
                      )}
                    >
                      {i + 1}
                    </span>
                    <span className="min-w-0">{s.title}</span>
                  </button>
                </li>
              ))}
            </ol>
          </CardBody>
        </Card>

        <div className="min-w-0 space-y-6">
          <Card>
            <CardHeader
              title={`Step ${state.index + 1} of ${state.steps.length}: ${step.title}`}
              description={step.description}
              actions={
                <>
                  {state.status === 'playing' ? (
                    <Button variant="secondary" onClick={() => dispatch({ type: 'pause' })}>
                      {EvolutionMessages.pause}
                    </Button>
                  ) : (
                    <Button onClick={() => dispatch({ type: 'play' })}>{EvolutionMessages.play}</Button>
                  )}
                  <Button variant="outline" onClick={() => dispatch({ type: 'reset' })}>
                    {EvolutionMessages.reset}
                  </Button>
                </>
              }
            />
            <CardBody>
              <div
                className="mb-4 h-1.5 overflow-hidden rounded-full bg-slate-100"
                role="progressbar"
                aria-label="Timeline progress"
                aria-valuemin={1}
                aria-valuemax={state.steps.length}
                aria-valuenow={state.index + 1}
              >
                <div
                  className="h-full bg-brand-600 transition-all duration-500"
                  style={{ width: `${progress}%` }}
                />
              </div>
              <p className="sr-only" aria-live="polite">
                {`Step ${state.index + 1} of ${state.steps.length}: ${step.title}. ${state.status}`}
              </p>
              <pre
                className="overflow-x-auto rounded-xl bg-slate-900 py-4 text-sm leading-6 text-slate-100"
                aria-label="Code"
              >
                <code className="block min-w-max">
                  {step.code.split('\n').map((line, i) => (
                    <span key={i} className={cn('flex px-4', added.has(i) && 'bg-emerald-500/20')}>
                      <span
                        aria-hidden="true"
                        className="mr-4 w-6 shrink-0 text-right text-slate-500 select-none"
                      >
                        {i + 1}
                      </span>
                      <span className="whitespace-pre">{line || ' '}</span>
                      {added.has(i) ? <span className="sr-only"> (new)</span> : null}
                    </span>
                  ))}
                </code>
              </pre>
            </CardBody>
          </Card>

          <Card>
            <CardHeader title="Custom Code" />
            <CardBody className="space-y-3">
              <label htmlFor={customId} className="block text-sm font-medium text-slate-700">
                {EvolutionMessages.customLabel}
              </label>
              <textarea
                id={customId}
                rows={6}
                value={custom}
                onChange={(e) => setCustom(e.target.value)}
                aria-describedby={customHintId}
                spellCheck={false}
                className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono text-sm text-slate-900 shadow-sm focus:border-brand-600 focus:ring-2 focus:ring-brand-600/20 focus:outline-none"
              />
              <p id={customHintId} className="text-xs text-slate-500">
                {EvolutionMessages.customHint}
              </p>
              <Button onClick={addCustom} disabled={!custom.trim()}>
                {EvolutionMessages.addCustom}
              </Button>
            </CardBody>
          </Card>
        </div>
      </div>
    </PageContainer>
  );
}

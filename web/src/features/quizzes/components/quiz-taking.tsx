import { useState } from 'react';
import {
  AssessmentMessages,
  UNLIMITED_ATTEMPTS,
  type AttemptStart,
  type Grade,
  type QuizKind,
} from '@district/contracts/assessment';
import { Alert, Button, Card, CardBody } from '@/components/ui';
import { ApiError, errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { isNetworkError, useSubmitGrade } from '../api/quizzes';
import { AudioPlayButton } from '@/components/audio';
import { QuizMessages } from '../quizzes.constants';

export interface QuizTakingProps {
  kind: QuizKind;
  attempt: AttemptStart;
  /** Display order: original question indexes, shuffled for this attempt. */
  order: number[];
  /** This attempt's Idempotency-Key, sent again with every retry of the submission. */
  idempotencyKey: string;
  onSubmitted: (grade: Grade) => void;
  onCancel: () => void;
}

/** Taking a quiz (spec §4 "Quiz taking", §5): every question answered before Submit; answers sent in original order. */
export function QuizTaking({ kind, attempt, order, idempotencyKey, onSubmitted, onCancel }: QuizTakingProps) {
  const { quiz } = attempt;
  const total = quiz.questions.length;
  const [answers, setAnswers] = useState<(number | null)[]>(() => quiz.questions.map(() => null));
  const [plays, setPlays] = useState<number[]>(() => quiz.questions.map(() => 0));
  const submit = useSubmitGrade(kind);
  const answered = answers.filter((a) => a !== null).length;
  const complete = answered === total && total > 0;
  const playLimit = kind === 'audio' ? quiz.audioPlayLimit : null;

  const send = () => {
    if (!complete || submit.isPending) return;
    submit.mutate(
      { quizId: quiz.id, userAnswers: answers as number[], idempotencyKey },
      { onSuccess: onSubmitted },
    );
  };

  const error = submit.error;
  const limitReached = error instanceof ApiError && error.status === 409;

  return (
    <section aria-labelledby="quiz-taking-title" className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 tabIndex={-1} id="quiz-taking-title" className="text-xl font-bold text-slate-900">
            {quiz.title}
          </h2>
          {quiz.description ? <p className="mt-1 text-slate-600">{quiz.description}</p> : null}
          <p className="mt-1 text-sm text-slate-500">
            {attempt.maxAttempts === UNLIMITED_ATTEMPTS
              ? `Attempt ${attempt.attemptsTaken + 1} (unlimited attempts)`
              : `Attempt ${attempt.attemptsTaken + 1} of ${attempt.maxAttempts}`}
          </p>
        </div>
        <Button variant="outline" onClick={onCancel} disabled={submit.isPending}>
          Back to Quizzes
        </Button>
      </div>

      <ol className="space-y-4">
        {order.map((original, position) => {
          const q = quiz.questions[original];
          const number = position + 1;
          const playsLeft = playLimit === null ? null : Math.max(0, playLimit - plays[original]);
          return (
            <li key={original}>
              <Card>
                <CardBody>
                  <fieldset aria-labelledby={`question-${number}-label`} data-question-index={original}>
                    <p id={`question-${number}-label`} className="font-semibold text-slate-900">
                      <span className="text-brand-700">Question {number}.</span> {q.question}
                    </p>
                    {kind === 'audio' && q.audioUrl ? (
                      <div className="mt-3 flex flex-wrap items-center gap-3">
                        <AudioPlayButton
                          key={q.audioUrl}
                          src={q.audioUrl}
                          canStartPlay={playsLeft === null || playsLeft > 0}
                          onPlayStarted={() => setPlays((p) => p.map((n, i) => (i === original ? n + 1 : n)))}
                        />
                        {playsLeft !== null ? (
                          <span className="text-sm text-slate-600">
                            {playsLeft === 0 ? 'No plays left' : `Plays left: ${playsLeft}`}
                          </span>
                        ) : null}
                      </div>
                    ) : null}
                    <div className="mt-3 grid gap-2 sm:grid-cols-2">
                      {q.options.map((option, i) => {
                        const checked = answers[original] === i;
                        return (
                          <label
                            key={i}
                            className={cn(
                              'flex cursor-pointer items-center gap-2 rounded-lg border px-3 py-2 text-sm',
                              checked ? 'border-brand-600 bg-brand-50' : 'border-slate-200 hover:bg-slate-50',
                            )}
                          >
                            <input
                              type="radio"
                              name={`answer-${original}`}
                              checked={checked}
                              onChange={() => setAnswers((a) => a.map((v, k) => (k === original ? i : v)))}
                              disabled={submit.isPending}
                            />
                            {option}
                          </label>
                        );
                      })}
                    </div>
                  </fieldset>
                </CardBody>
              </Card>
            </li>
          );
        })}
      </ol>

      {error ? (
        limitReached ? (
          <Alert tone="warning" title={AssessmentMessages.attemptLimitTitle}>
            {errorMessage(error, QuizMessages.submitFailed)}
          </Alert>
        ) : (
          <Alert tone="error">
            {isNetworkError(error)
              ? QuizMessages.submitNetworkFailed
              : errorMessage(error, QuizMessages.submitFailed)}
          </Alert>
        )
      ) : null}

      <div className="flex flex-wrap items-center gap-3">
        <Button onClick={send} disabled={!complete || limitReached} loading={submit.isPending}>
          Submit Quiz
        </Button>
        <span className="text-sm text-slate-600" aria-live="polite">
          Answered {answered} of {total}
          {complete ? '' : ` · ${AssessmentMessages.answersRequired}`}
        </span>
      </div>
    </section>
  );
}

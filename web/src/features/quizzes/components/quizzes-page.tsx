import { lazy, Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import {
  AssessmentMessages,
  type AttemptStart,
  type Grade,
  type Quiz,
  type QuizKind,
} from '@district/contracts/assessment';
import { Alert, Button, buttonClasses, QueryState, Spinner, useToastMutation } from '@/components/ui';
import { PageContainer, PageHeader, SignInLink } from '@/components/layout';
import { ApiError, errorMessage } from '@/lib/api-client';
import { isTeacherOrAdmin, useSession } from '@/lib/auth';
import { useConfirmedAction } from '@/lib/use-confirmed-action';
import { hasAnswerKey, useDeleteQuiz, useQuizzes, useStartAttempt, type ListedQuiz } from '../api/quizzes';
import { newIdempotencyKey, shuffledOrder } from '../hooks/attempt';
import { QUIZ_KINDS, QuizMessages } from '../quizzes.constants';
import { QuizList } from './quiz-list';

// The list is the first screen: the other views' code (and the audio player, URL tester and question review they
// bring) is fetched when the browser is idle after it, or when one is opened (issue #15: the quiz screen's LCP).
const loadTaking = () => import('./quiz-taking');
const loadResults = () => import('./quiz-results');
const loadForm = () => import('./quiz-form');
const QuizTaking = lazy(() => loadTaking().then((m) => ({ default: m.QuizTaking })));
const QuizResults = lazy(() => loadResults().then((m) => ({ default: m.QuizResults })));
const QuizForm = lazy(() => loadForm().then((m) => ({ default: m.QuizForm })));
// Only staff delete quizzes: the confirmation's code comes with their first delete (or while the browser is idle).
const loadConfirm = () => import('@/components/ui/confirm-dialog');
const ConfirmDialog = lazy(() => loadConfirm().then((m) => ({ default: m.ConfirmDialog })));

/** Runs `onShown` after each commit of a new `id` — inside a Suspense boundary, once its lazy view has arrived. */
function OnShown({ id, onShown }: { id: string; onShown: (id: string) => void }) {
  useEffect(() => onShown(id), [id, onShown]);
  return null;
}

type View =
  | { name: 'list' }
  | { name: 'taking'; attempt: AttemptStart; order: number[]; key: string }
  | { name: 'results'; grade: Grade }
  | { name: 'form'; quiz: Quiz | null };

/**
 * /audio-quizzes and /text-quizzes (spec §2, §4): list, then taking, then results; staff also create and edit.
 * `staffPanel` (the audio screen's student grades table, from the grades feature, composed in by the app) shows
 * under the list for approved teachers and admins.
 */
function QuizzesPage({ kind, staffPanel }: { kind: QuizKind; staffPanel?: ReactNode }) {
  const info = QUIZ_KINDS[kind];
  const { user } = useSession();
  const staff = Boolean(user?.approved) && isTeacherOrAdmin(user);
  const [view, setView] = useState<View>({ name: 'list' });
  const quizzes = useQuizzes(kind, view.name === 'list');
  const start = useToastMutation(useStartAttempt(kind), {
    // A reached attempt limit (409) is shown in its own panel, not as a toast.
    error: (err) =>
      err instanceof ApiError && err.status === 409 ? null : errorMessage(err, QuizMessages.startFailed),
    log: 'Starting the quiz failed',
  });
  const deleteQuiz = useToastMutation(useDeleteQuiz(kind), {
    success: QuizMessages.quizDeleted,
    error: (err) => QuizMessages.deleteFailed(errorMessage(err, QuizMessages.unknownError)),
    log: 'Quiz delete failed',
  });
  const [limit, setLimit] = useState<{ quizTitle: string; message: string } | null>(null);

  // Starting, submitting or leaving a quiz swaps the whole view and the pressed button with it: focus moves to the
  // new view's heading (or its first control) instead of dropping to the top of the page.
  const viewRef = useRef<HTMLDivElement>(null);
  const viewId = view.name === 'taking' ? view.key : view.name;
  const shownView = useRef(viewId);
  const focusView = useCallback((id: string) => {
    if (shownView.current === id) return;
    shownView.current = id;
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    const root = viewRef.current;
    (
      root?.querySelector<HTMLElement>('h2[tabindex="-1"]') ??
      root?.querySelector<HTMLElement>('button, a[href], input, select, textarea')
    )?.focus();
  }, []);

  // Once the list has been shown, the views a click can open next are fetched while the browser is idle.
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 200));
    const cancel = window.cancelIdleCallback ?? window.clearTimeout;
    const handle = idle(() => {
      void loadTaking();
      void loadResults();
      if (staff) {
        void loadForm();
        void loadConfirm();
      }
    });
    return () => cancel(handle);
  }, [staff]);

  const toList = () => {
    setView({ name: 'list' });
    window.scrollTo(0, 0);
  };

  const begin = (quiz: ListedQuiz) => {
    setLimit(null);
    void start.run(quiz.id).then((outcome) => {
      if (!outcome.ok) {
        const err = outcome.error;
        if (err instanceof ApiError && err.status === 409)
          setLimit({ quizTitle: quiz.title, message: err.fromServer ? err.message : '' });
        return;
      }
      // A fresh order and a fresh Idempotency-Key for every attempt.
      const attempt = outcome.data;
      setView({
        name: 'taking',
        attempt,
        order: shuffledOrder(attempt.quiz.questions.length),
        key: newIdempotencyKey(),
      });
      window.scrollTo(0, 0);
    });
  };

  const remove = useConfirmedAction(async (quiz: ListedQuiz) => {
    await deleteQuiz.run(quiz.id);
  });

  const edit = (quiz: ListedQuiz) => {
    if (hasAnswerKey(quiz)) setView({ name: 'form', quiz });
  };

  const unauthorized = quizzes.error instanceof ApiError && quizzes.error.status === 401;
  // Mounted from the first delete on, so that closing it (open → false) returns focus as the dialog does.
  const [confirmWanted, setConfirmWanted] = useState(false);
  if (remove.target !== null && !confirmWanted) setConfirmWanted(true);

  return (
    <PageContainer>
      <PageHeader
        title={info.title}
        description={info.description}
        actions={
          view.name === 'list' && staff ? (
            <Button onClick={() => setView({ name: 'form', quiz: null })}>Create Quiz</Button>
          ) : undefined
        }
      />

      <div ref={viewRef}>
        <Suspense
          fallback={
            <div className="flex justify-center py-16">
              <Spinner size="lg" label="Loading…" />
            </div>
          }
        >
          <OnShown id={viewId} onShown={focusView} />
          {view.name === 'taking' ? (
            <QuizTaking
              key={view.key}
              kind={kind}
              attempt={view.attempt}
              order={view.order}
              idempotencyKey={view.key}
              onSubmitted={(grade) => {
                setView({ name: 'results', grade });
                window.scrollTo(0, 0);
              }}
              onCancel={toList}
            />
          ) : view.name === 'results' ? (
            <QuizResults grade={view.grade} onBack={toList} />
          ) : view.name === 'form' ? (
            <QuizForm kind={kind} quiz={view.quiz} onDone={toList} />
          ) : unauthorized ? (
            <Alert tone="info" title={AssessmentMessages.quizzesLoginRequired}>
              <p>{QuizMessages.loginToView}</p>
              <SignInLink className={buttonClasses('primary', 'sm', 'mt-3')}>Login</SignInLink>
            </Alert>
          ) : (
            <QueryState
              query={quizzes}
              loading="Loading quizzes…"
              errorTitle={AssessmentMessages.fetchQuizzesFailed}
              errorText="Please try again in a moment."
            >
              {(list) => (
                <div className="space-y-4">
                  {limit ? (
                    <Alert tone="warning" title={AssessmentMessages.attemptLimitTitle}>
                      {limit.message ? <p>{limit.message}</p> : null}
                      <p className="mt-1 text-xs">{limit.quizTitle}</p>
                    </Alert>
                  ) : null}
                  <QuizList
                    kind={kind}
                    quizzes={list}
                    staff={staff}
                    startingId={start.isPending ? (start.variables ?? null) : null}
                    onStart={begin}
                    onEdit={edit}
                    onDelete={(quiz) => remove.ask(quiz)}
                  />
                  {staff && staffPanel ? <div className="pt-4">{staffPanel}</div> : null}
                </div>
              )}
            </QueryState>
          )}
        </Suspense>
      </div>

      {confirmWanted ? (
        <Suspense fallback={null}>
          <ConfirmDialog
            open={remove.target !== null}
            title="Delete quiz"
            message={remove.target ? <p>{QuizMessages.deleteConfirm(remove.target.title)}</p> : null}
            confirmLabel="Delete Quiz"
            busy={remove.busy}
            onConfirm={() => void remove.confirm()}
            onCancel={remove.cancel}
          />
        </Suspense>
      ) : null}
    </PageContainer>
  );
}

export function AudioQuizzesPage({ gradesPanel }: { gradesPanel?: ReactNode } = {}) {
  return <QuizzesPage kind="audio" staffPanel={gradesPanel} />;
}

export function TextQuizzesPage() {
  return <QuizzesPage kind="text" />;
}

import { useState } from 'react';
import { ClassroomMessages, type LessonPlan } from '@district/contracts/classroom';
import {
  Alert,
  Button,
  Card,
  CardBody,
  CardFooter,
  CardHeader,
  ConfirmDialog,
  QueryState,
  useToastMutation,
} from '@/components/ui';
import { PageContainer, PageHeader } from '@/components/layout';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useSession } from '@/lib/auth';
import { useConfirmedAction } from '@/lib/use-confirmed-action';
import { useDeleteLessonPlan, useLessonPlans, useSaveLessonPlan } from '../api/lesson-plans';
import { ClassroomTexts } from '../classroom.constants';
import { ErrorBanner, formatDate, isStaff } from '../shared';
import { LessonPlanForm } from './lesson-plan-form';
import { draftFromPlan, duplicateDraft, emptyDraft, type LessonPlanDraft } from './lesson-plan-model';
import { PrintablePlan } from './printable-plan';

type FormOpen =
  { mode: 'create'; initial: LessonPlanDraft } | { mode: 'edit'; id: string; initial: LessonPlanDraft };
type FormState = FormOpen & { key: number };

let formSeq = 0;

function Restricted() {
  return (
    <Alert tone="warning">
      <p className="font-medium">{ClassroomMessages.lessonPlansRestricted}</p>
    </Alert>
  );
}

/**
 * /lesson-plans (spec §2, §4, §5, §8): teachers and admins only ('Access Restricted…' for others, and for any 403 the
 * server gives). Cards with Print and Duplicate on every plan, Edit and Delete where the server allows (`canEdit`);
 * the form is closed, then open to create or edit; errors in a dismissible red banner.
 */
export function LessonPlansPage() {
  const { user } = useSession();
  const staff = isStaff(user);
  const [form, setForm] = useState<FormState | null>(null);
  const [banner, setBanner] = useState<string | null>(null);
  const [printing, setPrinting] = useState<LessonPlan | null>(null);
  const [dismissedFetchError, setDismissedFetchError] = useState(0);
  const plans = useLessonPlans(staff && form === null);
  // Spec §4: these screens show failures in their red banner, so only successes are toasts.
  const save = useToastMutation(useSaveLessonPlan(), {
    success: (_plan, sent) => (sent.id ? ClassroomTexts.lessonPlanUpdated : ClassroomTexts.lessonPlanCreated),
    log: 'Saving the lesson plan failed',
  });
  const remove = useToastMutation(useDeleteLessonPlan(), {
    success: ClassroomTexts.lessonPlanDeleted,
    log: 'Deleting the lesson plan failed',
  });

  const confirmDelete = useConfirmedAction(async (plan: LessonPlan) => {
    const outcome = await remove.run(plan.id);
    setBanner(outcome.ok ? null : errorMessage(outcome.error, ClassroomMessages.deleteLessonPlanFailed));
  });

  const open = (next: FormOpen) => {
    setBanner(null);
    setForm({ ...next, key: ++formSeq });
    window.scrollTo(0, 0);
  };
  const close = () => {
    setForm(null);
    setBanner(null);
  };

  const submit = (draft: LessonPlanDraft) => {
    if (!form) return;
    setBanner(null);
    void save.run({ id: form.mode === 'edit' ? form.id : null, body: draft }).then((outcome) => {
      if (outcome.ok) setForm(null);
      else setBanner(errorMessage(outcome.error, ClassroomMessages.saveLessonPlanFailed));
    });
  };

  const forbidden = !staff || (plans.error instanceof ApiError && plans.error.status === 403);

  return (
    <PageContainer>
      <PageHeader
        title={ClassroomMessages.lessonPlansHeading}
        description={ClassroomTexts.lessonPlansDescription}
        actions={
          !forbidden && form === null ? (
            <Button onClick={() => open({ mode: 'create', initial: emptyDraft(user?.name ?? '') })}>
              {ClassroomMessages.createLessonPlan}
            </Button>
          ) : undefined
        }
      />
      {forbidden ? (
        <Restricted />
      ) : (
        <>
          {banner ? <ErrorBanner message={banner} onDismiss={() => setBanner(null)} /> : null}
          {form ? (
            <LessonPlanForm
              key={form.key}
              mode={form.mode}
              initial={form.initial}
              saving={save.isPending}
              onSubmit={submit}
              onCancel={close}
              onInvalid={setBanner}
            />
          ) : (
            <QueryState
              query={plans}
              loading="Loading lesson plans…"
              errorView={({ error, retry }) => (
                <div>
                  {dismissedFetchError !== plans.errorUpdatedAt ? (
                    <ErrorBanner
                      message={errorMessage(error, ClassroomMessages.fetchLessonPlansFailed)}
                      onDismiss={() => setDismissedFetchError(plans.errorUpdatedAt)}
                    />
                  ) : null}
                  {retry()}
                </div>
              )}
              empty={
                <Card>
                  <CardBody className="py-12 text-center">
                    <h2 className="text-lg font-semibold text-slate-900">
                      {ClassroomMessages.lessonPlansEmptyTitle}
                    </h2>
                    <p className="mt-1 text-slate-600">{ClassroomMessages.lessonPlansEmptyBody}</p>
                  </CardBody>
                </Card>
              }
            >
              {(list) => (
                <ul
                  className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3"
                  aria-label="Lesson plans"
                >
                  {list.map((plan) => (
                    <li key={plan.id} className="flex">
                      <Card className="flex w-full flex-col">
                        <CardHeader as="h2" title={plan.title} />
                        <CardBody className="flex-1">
                          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                            <dt className="font-medium text-slate-500">Subject</dt>
                            <dd className="break-words text-slate-800">{plan.subject || '—'}</dd>
                            <dt className="font-medium text-slate-500">Topic</dt>
                            <dd className="break-words text-slate-800">{plan.topic || '—'}</dd>
                            <dt className="font-medium text-slate-500">Date</dt>
                            <dd className="text-slate-800">{plan.date ? formatDate(plan.date) : '—'}</dd>
                            <dt className="font-medium text-slate-500">Total Time</dt>
                            <dd className="text-slate-800">{plan.totalTime || '—'}</dd>
                          </dl>
                          <p className="mt-3 text-xs text-slate-500">
                            Created by {plan.creatorName || 'a former user'}
                            {plan.createdAt ? ` on ${formatDate(plan.createdAt)}` : ''}
                          </p>
                        </CardBody>
                        <CardFooter>
                          {plan.canEdit ? (
                            <Button
                              variant="outline"
                              size="sm"
                              onClick={() =>
                                open({ mode: 'edit', id: plan.id, initial: draftFromPlan(plan) })
                              }
                              aria-label={`Edit ${plan.title}`}
                            >
                              Edit
                            </Button>
                          ) : null}
                          <Button
                            variant="outline"
                            size="sm"
                            onClick={() => setPrinting(plan)}
                            aria-label={`Print ${plan.title}`}
                          >
                            Print
                          </Button>
                          <Button
                            variant="outline"
                            size="sm"
                            onClick={() =>
                              open({ mode: 'create', initial: duplicateDraft(plan, ClassroomTexts.copyOf) })
                            }
                            aria-label={`Duplicate ${plan.title}`}
                          >
                            Duplicate
                          </Button>
                          {plan.canEdit ? (
                            <Button
                              variant="danger"
                              size="sm"
                              onClick={() => confirmDelete.ask(plan)}
                              aria-label={`Delete ${plan.title}`}
                            >
                              Delete
                            </Button>
                          ) : null}
                        </CardFooter>
                      </Card>
                    </li>
                  ))}
                </ul>
              )}
            </QueryState>
          )}
        </>
      )}
      {printing ? <PrintablePlan plan={printing} onClose={() => setPrinting(null)} /> : null}
      <ConfirmDialog
        open={confirmDelete.target !== null}
        title="Delete lesson plan"
        message={<p>{ClassroomMessages.deleteLessonPlanConfirm}</p>}
        confirmLabel="Delete"
        busy={confirmDelete.busy}
        onConfirm={() => void confirmDelete.confirm()}
        onCancel={confirmDelete.cancel}
      />
    </PageContainer>
  );
}

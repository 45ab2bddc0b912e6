import { useState } from 'react';
import { ClassroomMessages, type GoogleSlide } from '@district/contracts/classroom';
import {
  Alert,
  Button,
  buttonClasses,
  Card,
  CardBody,
  ConfirmDialog,
  QueryState,
  useToast,
  useToastMutation,
} from '@/components/ui';
import { PageContainer, PageHeader, SignInLink } from '@/components/layout';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useSession } from '@/lib/auth';
import { useConfirmedAction } from '@/lib/use-confirmed-action';
import {
  useDeleteGoogleSlide,
  useGoogleSlides,
  useSaveGoogleSlide,
  type GoogleSlideWrite,
} from '../api/google-slides';
import { ClassroomTexts } from '../classroom.constants';
import { ErrorBanner, isStaff } from '../shared';
import { SlideCard } from './slide-card';
import { SlideForm } from './slide-form';
import { SlidesHelpText } from './slides-help';

let formSeq = 0;

/**
 * /google-slides (spec §2, §4, §5, §6, §8): every signed-in user views (students get only public slides from the
 * server); approved teachers and admins add; Edit and Delete where the server allows (`canEdit`).
 */
export function GoogleSlidesPage() {
  const { user } = useSession();
  const staff = isStaff(user);
  const [form, setForm] = useState<{ slide: GoogleSlide | null; key: number } | null>(null);
  const [banner, setBanner] = useState<string | null>(null);
  const [dismissedFetchError, setDismissedFetchError] = useState(0);
  const slides = useGoogleSlides(form === null);
  // Spec §4: these screens show failures in their red banner, so only successes are toasts.
  const save = useToastMutation(useSaveGoogleSlide(), {
    success: (_slide, sent) => (sent.id ? ClassroomTexts.slideUpdated : ClassroomTexts.slideCreated),
    log: 'Saving the Google Slide failed',
  });
  const remove = useToastMutation(useDeleteGoogleSlide(), {
    success: ClassroomTexts.slideDeleted,
    log: 'Deleting the Google Slide failed',
  });
  const { toast } = useToast();

  const confirmDelete = useConfirmedAction(async (slide: GoogleSlide) => {
    const outcome = await remove.run(slide.id);
    setBanner(outcome.ok ? null : errorMessage(outcome.error, ClassroomMessages.deleteSlideFailed));
  });

  const open = (slide: GoogleSlide | null) => {
    setBanner(null);
    setForm({ slide, key: ++formSeq });
    window.scrollTo(0, 0);
  };
  const close = () => {
    setForm(null);
    setBanner(null);
  };

  const submit = (body: GoogleSlideWrite) => {
    if (!form) return;
    setBanner(null);
    void save.run({ id: form.slide?.id ?? null, body }).then((outcome) => {
      if (outcome.ok) setForm(null);
      else setBanner(errorMessage(outcome.error, ClassroomMessages.saveSlideFailed));
    });
  };

  const unauthorized = slides.error instanceof ApiError && slides.error.status === 401;

  return (
    <PageContainer>
      <PageHeader
        title={ClassroomMessages.slidesHeading}
        description={ClassroomTexts.slidesDescription}
        actions={
          staff && form === null ? (
            <Button onClick={() => open(null)}>{ClassroomTexts.addSlide}</Button>
          ) : undefined
        }
      />
      {banner ? <ErrorBanner message={banner} onDismiss={() => setBanner(null)} /> : null}
      {form ? (
        <SlideForm
          key={form.key}
          slide={form.slide}
          saving={save.isPending}
          onSubmit={submit}
          onCancel={close}
          onInvalid={setBanner}
        />
      ) : null}
      {unauthorized ? (
        <Alert tone="info">
          <p className="font-medium">{ClassroomMessages.slidesLoginRequired}</p>
          <SignInLink className={buttonClasses('primary', 'sm', 'mt-3')}>Login</SignInLink>
        </Alert>
      ) : form ? null : (
        <QueryState
          query={slides}
          loading="Loading Google Slides…"
          errorView={({ error, retry }) => (
            <div>
              {dismissedFetchError !== slides.errorUpdatedAt ? (
                <ErrorBanner
                  message={errorMessage(error, ClassroomMessages.fetchSlidesFailed)}
                  onDismiss={() => setDismissedFetchError(slides.errorUpdatedAt)}
                />
              ) : null}
              {retry()}
            </div>
          )}
        >
          {(list) => (
            <>
              <p className="mb-4 text-sm text-slate-600">
                <SlidesHelpText />
              </p>
              {list.length === 0 ? (
                <Card>
                  <CardBody className="py-12 text-center text-slate-600">
                    {staff ? ClassroomMessages.slidesEmptyTeacher : ClassroomTexts.slidesEmptyOthers}
                  </CardBody>
                </Card>
              ) : (
                <ul
                  className="grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3"
                  aria-label="Presentations"
                >
                  {list.map((slide) => (
                    <li key={slide.id} className="flex">
                      <SlideCard
                        slide={slide}
                        staff={staff}
                        onEdit={() => open(slide)}
                        onDelete={() => confirmDelete.ask(slide)}
                        onMissingUrl={() => toast({ type: 'error', message: ClassroomMessages.noSlidesUrl })}
                      />
                    </li>
                  ))}
                </ul>
              )}
            </>
          )}
        </QueryState>
      )}
      <ConfirmDialog
        open={confirmDelete.target !== null}
        title="Delete Google Slide"
        message={<p>{ClassroomMessages.deleteSlideConfirm}</p>}
        confirmLabel="Delete"
        busy={confirmDelete.busy}
        onConfirm={() => void confirmDelete.confirm()}
        onCancel={confirmDelete.cancel}
      />
    </PageContainer>
  );
}

import { useState } from 'react';
import { ClassroomMessages, type GoogleSlide } from '@district/contracts/classroom';
import { Alert, Button, buttonClasses, Card, CardBody, ConfirmDialog, useToast } from '@/components/ui';
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
import { ErrorBanner, isStaff, Loading } from '../shared';
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
  const save = useSaveGoogleSlide();
  const remove = useDeleteGoogleSlide();
  const { toast } = useToast();

  const confirmDelete = useConfirmedAction(
    async (slide: GoogleSlide) => {
      await remove.mutateAsync(slide.id);
      setBanner(null);
      toast({ type: 'success', message: ClassroomTexts.slideDeleted });
    },
    { onError: (err) => setBanner(errorMessage(err, ClassroomMessages.deleteSlideFailed)) },
  );

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
    save.mutate(
      { id: form.slide?.id ?? null, body },
      {
        onSuccess: () => {
          toast({
            type: 'success',
            message: form.slide ? ClassroomTexts.slideUpdated : ClassroomTexts.slideCreated,
          });
          setForm(null);
        },
        onError: (err) => setBanner(errorMessage(err, ClassroomMessages.saveSlideFailed)),
      },
    );
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
      ) : form ? null : slides.isPending ? (
        <Loading label="Loading Google Slides…" />
      ) : slides.isError && !slides.data ? (
        <div>
          {dismissedFetchError !== slides.errorUpdatedAt ? (
            <ErrorBanner
              message={errorMessage(slides.error, ClassroomMessages.fetchSlidesFailed)}
              onDismiss={() => setDismissedFetchError(slides.errorUpdatedAt)}
            />
          ) : null}
          <Button variant="outline" onClick={() => void slides.refetch()}>
            Try Again
          </Button>
        </div>
      ) : (
        <>
          <p className="mb-4 text-sm text-slate-600">
            <SlidesHelpText />
          </p>
          {slides.data.length === 0 ? (
            <Card>
              <CardBody className="py-12 text-center text-slate-600">
                {staff ? ClassroomMessages.slidesEmptyTeacher : ClassroomTexts.slidesEmptyOthers}
              </CardBody>
            </Card>
          ) : (
            <ul className="grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3" aria-label="Presentations">
              {slides.data.map((slide) => (
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

import {
  ClassroomMessages,
  GOOGLE_SLIDES_HOST,
  isGoogleSlidesUrl,
  SLIDE_PREVIEW_HEIGHT,
  type GoogleSlide,
} from '@district/contracts/classroom';
import { Badge, Button, buttonClasses, Card, CardBody, CardFooter } from '@/components/ui';
import { ClassroomTexts } from '../classroom.constants';
import { formatDate } from '../shared';

const EMBED_PREFIX = `https://${GOOGLE_SLIDES_HOST}/presentation/d/`;

/**
 * The Google Slides embed needs scripts and its own origin (it is a cross-origin app, so these do not reach this
 * site), and popups for its links; nothing else (no forms, no top navigation, no downloads).
 */
export const SLIDE_IFRAME_SANDBOX =
  'allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox';

export interface SlideCardProps {
  slide: GoogleSlide;
  /** Teachers and admins see whether students can see the slide. */
  staff: boolean;
  onEdit: () => void;
  onDelete: () => void;
  onMissingUrl: () => void;
}

/** One slide (spec §2): title, Public badge, description, category, creator, date, tags, the 200 px preview, Open. */
export function SlideCard({ slide, staff, onEdit, onDelete, onMissingUrl }: SlideCardProps) {
  // The server derives embedUrl; a frame is made only for a Google Slides embed address all the same.
  const embed = slide.embedUrl.startsWith(EMBED_PREFIX) ? slide.embedUrl : '';
  const openable = isGoogleSlidesUrl(slide.googleSlidesUrl);
  return (
    <Card className="flex w-full flex-col overflow-hidden">
      <div className="border-b border-slate-100 bg-slate-50">
        {embed ? (
          <iframe
            src={embed}
            title={`Preview of ${slide.title}`}
            height={SLIDE_PREVIEW_HEIGHT}
            className="block w-full border-0"
            style={{ height: SLIDE_PREVIEW_HEIGHT }}
            sandbox={SLIDE_IFRAME_SANDBOX}
            allow="fullscreen"
            allowFullScreen
            loading="lazy"
            referrerPolicy="strict-origin-when-cross-origin"
          />
        ) : (
          <p
            className="flex items-center justify-center text-sm text-slate-500"
            style={{ height: SLIDE_PREVIEW_HEIGHT }}
          >
            {ClassroomMessages.previewNotAvailable}
          </p>
        )}
      </div>
      <CardBody className="flex-1 space-y-2">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <h2 className="min-w-0 break-words text-lg font-semibold text-slate-900">{slide.title}</h2>
          {slide.isPublic ? <Badge tone="success">Public</Badge> : null}
        </div>
        {staff ? (
          <p className="text-xs font-medium text-slate-600">
            {slide.isPublic ? ClassroomTexts.visibleToStudents : ClassroomTexts.notVisibleToStudents}
          </p>
        ) : null}
        {slide.description ? (
          <p className="whitespace-pre-line break-words text-sm text-slate-700">{slide.description}</p>
        ) : null}
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          {slide.category ? (
            <>
              <dt className="font-medium text-slate-500">Category</dt>
              <dd className="break-words text-slate-800">{slide.category}</dd>
            </>
          ) : null}
          <dt className="font-medium text-slate-500">Created by</dt>
          <dd className="break-words text-slate-800">{slide.creatorName || 'a former user'}</dd>
          <dt className="font-medium text-slate-500">Date</dt>
          <dd className="text-slate-800">{formatDate(slide.createdAt)}</dd>
        </dl>
        {slide.tags.length ? (
          <ul className="flex flex-wrap gap-1.5" aria-label="Tags">
            {slide.tags.map((tag) => (
              <li key={tag}>
                <Badge tone="brand">{tag}</Badge>
              </li>
            ))}
          </ul>
        ) : null}
      </CardBody>
      <CardFooter>
        {openable ? (
          <a
            href={slide.googleSlidesUrl}
            target="_blank"
            rel="noopener noreferrer"
            className={buttonClasses('primary', 'sm')}
            aria-label={`${ClassroomMessages.openInGoogleSlides}: ${slide.title} (opens in a new tab)`}
          >
            {ClassroomMessages.openInGoogleSlides}
          </a>
        ) : (
          <Button size="sm" onClick={onMissingUrl}>
            {ClassroomMessages.openInGoogleSlides}
          </Button>
        )}
        {slide.canEdit ? (
          <>
            <Button variant="outline" size="sm" onClick={onEdit} aria-label={`Edit ${slide.title}`}>
              Edit
            </Button>
            <Button variant="danger" size="sm" onClick={onDelete} aria-label={`Delete ${slide.title}`}>
              Delete
            </Button>
          </>
        ) : null}
      </CardFooter>
    </Card>
  );
}

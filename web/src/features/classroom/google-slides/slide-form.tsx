import { useState, type FormEvent } from 'react';
import {
  ClassroomMessages,
  deriveEmbedUrl,
  googleSlideInputSchema,
  isGoogleSlidesUrl,
  SLIDE_CATEGORY_MAX,
  SLIDE_DESCRIPTION_MAX,
  SLIDE_TITLE_MAX,
  SLIDE_URL_MAX,
  splitTags,
  type GoogleSlide,
} from '@district/contracts/classroom';
import { Button, Card, CardBody, CardHeader, TextAreaField, TextField } from '@/components/ui';
import type { GoogleSlideWrite } from '../api/google-slides';
import { SlidesHelpText } from './slides-help';

export interface SlideFormProps {
  slide: GoogleSlide | null;
  saving: boolean;
  onSubmit: (body: GoogleSlideWrite) => void;
  onCancel: () => void;
  /** A problem found before sending: shown in the page's red banner, and nothing is sent. */
  onInvalid: (message: string) => void;
}

/**
 * Add or edit a slide (spec §5): title required; the URL required, a URL, and a Google Slides presentation link
 * ('Please enter a valid Google Slides URL' otherwise); tags typed comma separated; public by default.
 */
export function SlideForm({ slide, saving, onSubmit, onCancel, onInvalid }: SlideFormProps) {
  const [title, setTitle] = useState(slide?.title ?? '');
  const [description, setDescription] = useState(slide?.description ?? '');
  const [url, setUrl] = useState(slide?.googleSlidesUrl ?? '');
  const [category, setCategory] = useState(slide?.category ?? '');
  const [tags, setTags] = useState(slide?.tags.join(', ') ?? '');
  const [isPublic, setIsPublic] = useState(slide?.isPublic ?? true);
  const [errors, setErrors] = useState<{ title?: string; url?: string }>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: { title?: string; url?: string } = {};
    if (title.trim() === '') next.title = ClassroomMessages.slideTitleRequired;
    if (url.trim() === '') next.url = ClassroomMessages.slideUrlRequired;
    else if (!isGoogleSlidesUrl(url)) next.url = ClassroomMessages.invalidSlidesUrl;
    setErrors(next);
    const first = next.title ?? next.url;
    if (first) {
      onInvalid(first);
      return;
    }
    const parsed = googleSlideInputSchema.safeParse({
      title,
      description,
      googleSlidesUrl: url,
      isPublic,
      category,
      tags: splitTags(tags),
    });
    if (!parsed.success) {
      onInvalid(parsed.error.issues[0]?.message ?? ClassroomMessages.saveSlideFailed);
      return;
    }
    const { embedUrl: _ignored, ...body } = parsed.data;
    onSubmit({ ...body, embedUrl: deriveEmbedUrl(body.googleSlidesUrl) });
  };

  return (
    <Card className="mb-6">
      <CardHeader title={slide ? `Edit: ${slide.title}` : 'Add Google Slides Presentation'} />
      <CardBody>
        <form
          noValidate
          onSubmit={submit}
          aria-label={slide ? 'Edit Google Slides presentation' : 'Add Google Slides presentation'}
          className="space-y-4"
        >
          <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
            <TextField
              label="Title"
              required
              maxLength={SLIDE_TITLE_MAX}
              value={title}
              error={errors.title}
              onChange={(e) => setTitle(e.target.value)}
            />
            <TextField
              label="Category"
              maxLength={SLIDE_CATEGORY_MAX}
              value={category}
              onChange={(e) => setCategory(e.target.value)}
            />
          </div>
          <TextField
            label="Google Slides URL"
            type="url"
            inputMode="url"
            required
            maxLength={SLIDE_URL_MAX}
            placeholder="https://docs.google.com/presentation/d/…"
            value={url}
            error={errors.url}
            hint={<SlidesHelpText />}
            onChange={(e) => setUrl(e.target.value)}
          />
          <TextAreaField
            label="Description"
            rows={3}
            maxLength={SLIDE_DESCRIPTION_MAX}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
          <TextField
            label="Tags"
            placeholder="vocabulary, unit 3, review"
            hint="Separate tags with commas."
            value={tags}
            onChange={(e) => setTags(e.target.value)}
          />
          <label className="inline-flex items-center gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              className="size-4 rounded border-slate-300"
              checked={isPublic}
              onChange={(e) => setIsPublic(e.target.checked)}
            />
            Public (visible to students)
          </label>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" loading={saving}>
              {slide ? 'Update Slide' : 'Add Slide'}
            </Button>
            <Button variant="outline" onClick={onCancel} disabled={saving}>
              {ClassroomMessages.cancel}
            </Button>
          </div>
        </form>
      </CardBody>
    </Card>
  );
}

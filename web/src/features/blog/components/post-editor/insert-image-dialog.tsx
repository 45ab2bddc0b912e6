import { useState, type FormEvent } from 'react';
import { Button, Modal, TextField } from '@/components/ui';
import { isSafeImageUrl } from './html-tools';

/** Adds (or changes) an image by URL in rich-text mode. Alt text is required, as publishing needs it on every image. */
export function InsertImageDialog({
  initialSrc,
  initialAlt,
  onInsert,
  onClose,
}: {
  initialSrc: string;
  initialAlt: string;
  onInsert: (image: { src: string; alt: string }) => void;
  onClose: () => void;
}) {
  const [src, setSrc] = useState(initialSrc);
  const [alt, setAlt] = useState(initialAlt);
  const [errors, setErrors] = useState<{ src?: string; alt?: string }>({});
  // A form, so Enter in either field inserts like the button; the event stays here (React bubbles it through the
  // portal to the editor's tree).
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    event.stopPropagation();
    const next = {
      src: isSafeImageUrl(src)
        ? undefined
        : 'Please enter an image link starting with http://, https:// or /',
      alt: alt.trim() ? undefined : 'Please describe the image in the alt text',
    };
    setErrors(next);
    if (next.src || next.alt) return;
    onInsert({ src: src.trim(), alt: alt.trim() });
  };
  return (
    <Modal open onClose={onClose} title="Insert Image">
      <form onSubmit={submit} noValidate className="space-y-4" aria-label="Insert Image">
        <TextField
          label="Image URL"
          value={src}
          error={errors.src}
          onChange={(e) => setSrc(e.target.value)}
          placeholder="https://"
        />
        <TextField
          label="Alt text"
          value={alt}
          error={errors.alt}
          hint="Describes the image for readers who cannot see it. Required before publishing."
          onChange={(e) => setAlt(e.target.value)}
        />
        <div className="flex justify-end gap-2 pt-2">
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit">Insert</Button>
        </div>
      </form>
    </Modal>
  );
}

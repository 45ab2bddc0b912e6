import { useState } from 'react';
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
  const submit = () => {
    const next = {
      src: isSafeImageUrl(src) ? undefined : 'Please enter an image link starting with http://, https:// or /',
      alt: alt.trim() ? undefined : 'Please describe the image in the alt text',
    };
    setErrors(next);
    if (next.src || next.alt) return;
    onInsert({ src: src.trim(), alt: alt.trim() });
  };
  return (
    <Modal
      open
      onClose={onClose}
      title="Insert Image"
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={submit}>Insert</Button>
        </>
      }
    >
      <div className="space-y-4">
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
      </div>
    </Modal>
  );
}

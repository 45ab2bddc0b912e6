import { useRef, type ChangeEvent } from 'react';
import { ContentMessages, MAX_IMAGE_BYTES } from '@district/contracts/content';
import { Button, TextField, useToast, useToastMutation } from '@/components/ui';
import { useUploadImage } from '../../api/images';

/** Spec §5/§8 upload checks before the file leaves the browser (the server checks the bytes again). */
export function uploadProblem(file: File): string | null {
  if (!file.type.startsWith('image/')) return ContentMessages.selectImageFile;
  if (file.size > MAX_IMAGE_BYTES) return ContentMessages.imageTooLarge;
  return null;
}

/** The featured image: a URL typed in, or an uploaded file's URL, with a preview. */
export function FeaturedImageField({ value, onChange }: { value: string; onChange: (url: string) => void }) {
  const { toast } = useToast();
  const upload = useToastMutation(useUploadImage(), {
    error: (err) => `Upload failed: ${err instanceof Error ? err.message : 'Unknown error'}`,
    log: 'Image upload failed',
  });
  const fileRef = useRef<HTMLInputElement>(null);

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const problem = uploadProblem(file);
    if (problem) {
      toast({ type: 'error', message: problem });
      return;
    }
    const outcome = await upload.run(file);
    if (outcome.ok) onChange(outcome.data);
  };

  return (
    <div className="space-y-2">
      <TextField
        label="Featured image URL"
        value={value}
        placeholder="https://… or upload"
        onChange={(e) => onChange(e.target.value)}
      />
      <input
        ref={fileRef}
        type="file"
        accept="image/*"
        className="sr-only"
        aria-label="Upload featured image"
        onChange={(e) => void onFile(e)}
      />
      <div className="flex gap-2">
        <Button
          size="sm"
          variant="outline"
          loading={upload.isPending}
          onClick={() => fileRef.current?.click()}
        >
          Upload Image
        </Button>
        {value ? (
          <Button size="sm" variant="ghost" onClick={() => onChange('')}>
            Remove Image
          </Button>
        ) : null}
      </div>
      {value ? (
        <img
          src={value}
          alt="Featured image preview"
          className="max-h-40 rounded-lg border border-slate-200"
        />
      ) : null}
    </div>
  );
}

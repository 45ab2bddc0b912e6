import { useState, type FormEvent } from 'react';
import { Button, Modal, TextField } from '@/components/ui';
import { isSafeLinkUrl } from './html-tools';

/** A link the admin asked for; the URL has passed isSafeLinkUrl. */
export interface LinkRequest {
  url: string;
  text: string;
}

/** The insert-link flow of both content modes: only http(s), mailto and site paths get through. */
export function InsertLinkDialog({
  open,
  initialText,
  initialUrl = '',
  onInsert,
  onClose,
}: {
  open: boolean;
  initialText: string;
  initialUrl?: string;
  onInsert: (link: LinkRequest) => void;
  onClose: () => void;
}) {
  const [url, setUrl] = useState(initialUrl);
  const [text, setText] = useState(initialText);
  const [error, setError] = useState<string | undefined>();
  // A form, so Enter in either field inserts like the Insert button (through the same URL check).
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // The dialog is portalled, but React bubbles events through the component tree: keep this submit here.
    event.stopPropagation();
    if (!isSafeLinkUrl(url)) {
      setError('Please enter a link starting with http://, https://, mailto: or /');
      return;
    }
    onInsert({ url: url.trim(), text });
  };
  return (
    <Modal open={open} onClose={onClose} title="Insert Link">
      <form onSubmit={submit} noValidate className="space-y-4" aria-label="Insert Link">
        <TextField
          label="Link URL"
          value={url}
          error={error}
          onChange={(e) => setUrl(e.target.value)}
          placeholder="https://"
        />
        <TextField label="Link text" value={text} onChange={(e) => setText(e.target.value)} />
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

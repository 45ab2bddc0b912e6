import { useState, type FormEvent } from 'react';
import {
  AUDIO_FILE_NAME_MAX,
  AUDIO_FILE_URL_MAX,
  AUDIO_LIST_DESCRIPTION_MAX,
  AUDIO_LIST_FILES_MAX,
  AUDIO_LIST_TITLE_MAX,
  audioListInputSchema,
  ClassroomMessages,
  type AudioList,
} from '@district/contracts/classroom';
import { AudioUrlTest } from '@/components/audio';
import {
  Alert,
  Button,
  Card,
  CardBody,
  CardHeader,
  TextAreaField,
  TextField,
  useToastMutation,
} from '@/components/ui';
import { errorMessage } from '@/lib/api-client';
import { useSaveAudioList } from '../api/audio-lists';
import { ClassroomTexts } from '../classroom.constants';

interface FileRow {
  key: number;
  name: string;
  url: string;
}

let rowSeq = 0;
const row = (name = '', url = ''): FileRow => ({ key: ++rowSeq, name, url });

/**
 * Create or edit an audio list (spec §5): title and at least one file, else 'Please provide a title and at least one
 * audio file.'; each file needs a name and a URL. Rows left entirely blank are ignored. The whole list is sent.
 */
export function AudioListForm({ list, onDone }: { list: AudioList | null; onDone: () => void }) {
  // The form shows a failure itself (its problem box), so only the success is a toast.
  const save = useToastMutation(useSaveAudioList(), {
    success: list ? ClassroomTexts.audioListUpdated : ClassroomTexts.audioListCreated,
    log: 'Saving the audio list failed',
  });
  const [title, setTitle] = useState(list?.title ?? '');
  const [description, setDescription] = useState(list?.description ?? '');
  const [files, setFiles] = useState<FileRow[]>(() =>
    list?.audioFiles.length ? list.audioFiles.map((f) => row(f.name, f.url)) : [row()],
  );
  const [problem, setProblem] = useState<{ title: string; detail?: string } | null>(null);

  const update = (key: number, patch: Partial<FileRow>) =>
    setFiles((rows) => rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const filled = files.filter((f) => f.name.trim() !== '' || f.url.trim() !== '');
    if (title.trim() === '' || filled.length === 0) {
      setProblem({ title: ClassroomMessages.audioListRequired });
      return;
    }
    const parsed = audioListInputSchema.safeParse({
      title,
      description,
      audioFiles: filled.map(({ name, url }) => ({ name, url })),
    });
    if (!parsed.success) {
      setProblem({ title: parsed.error.issues[0]?.message ?? ClassroomMessages.audioListRequired });
      return;
    }
    setProblem(null);
    void save.run({ id: list?.id ?? null, body: parsed.data }).then((outcome) => {
      if (outcome.ok) onDone();
      else
        setProblem({
          title: ClassroomMessages.saveAudioListFailed,
          detail: errorMessage(outcome.error, '') || undefined,
        });
    });
  };

  return (
    <Card>
      <CardHeader title={list ? `Edit Audio List: ${list.title}` : ClassroomTexts.createAudioList} />
      <CardBody>
        <form
          noValidate
          onSubmit={submit}
          className="space-y-4"
          aria-label={list ? 'Edit audio list' : 'Create audio list'}
        >
          {problem ? (
            <Alert tone="error" title={problem.title}>
              {problem.detail ? <p>{problem.detail}</p> : null}
            </Alert>
          ) : null}
          <TextField
            label="Title"
            required
            maxLength={AUDIO_LIST_TITLE_MAX}
            value={title}
            onChange={(e) => setTitle(e.target.value)}
          />
          <TextAreaField
            label="Description"
            rows={3}
            maxLength={AUDIO_LIST_DESCRIPTION_MAX}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
          <fieldset className="space-y-3">
            <legend className="mb-2 text-sm font-semibold text-slate-800">Audio Files</legend>
            {files.map((f, i) => (
              <div
                key={f.key}
                role="group"
                aria-label={`Audio file ${i + 1}`}
                className="space-y-2 rounded-lg border border-slate-200 p-3"
              >
                <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
                  <TextField
                    label="Name"
                    maxLength={AUDIO_FILE_NAME_MAX}
                    value={f.name}
                    onChange={(e) => update(f.key, { name: e.target.value })}
                  />
                  <TextField
                    label="URL"
                    type="url"
                    inputMode="url"
                    placeholder="https://example.com/audio.mp3"
                    maxLength={AUDIO_FILE_URL_MAX}
                    value={f.url}
                    onChange={(e) => update(f.key, { url: e.target.value })}
                  />
                </div>
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <AudioUrlTest url={f.url} label={`Test audio file ${i + 1}`} />
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => setFiles((rows) => rows.filter((r) => r.key !== f.key))}
                    disabled={files.length === 1}
                    aria-label={`Remove audio file ${i + 1}`}
                  >
                    Remove
                  </Button>
                </div>
              </div>
            ))}
            <Button
              variant="outline"
              size="sm"
              onClick={() => setFiles((rows) => [...rows, row()])}
              disabled={files.length >= AUDIO_LIST_FILES_MAX}
            >
              Add Audio File
            </Button>
          </fieldset>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" loading={save.isPending}>
              {list ? 'Update List' : 'Save List'}
            </Button>
            <Button variant="outline" onClick={onDone} disabled={save.isPending}>
              {ClassroomMessages.cancel}
            </Button>
          </div>
        </form>
      </CardBody>
    </Card>
  );
}

import { useState } from 'react';
import { ClassroomMessages, type AudioList } from '@district/contracts/classroom';
import {
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
import { useSession } from '@/lib/auth';
import { useConfirmedAction } from '@/lib/use-confirmed-action';
import { useAudioLists, useDeleteAudioList } from '../api/audio-lists';
import { ClassroomTexts } from '../classroom.constants';
import { formatDate, isStaff } from '../shared';
import { AudioListForm } from './audio-list-form';
import { FilePlayer } from './file-player';

/**
 * /audio-lists (spec §2, §5, §6, §8): every signed-in user lists and plays; approved teachers and admins create;
 * Edit and Delete appear where the server says the caller may (`canEdit`: the list's creator or an admin).
 */
export function AudioListsPage() {
  const { user } = useSession();
  const staff = isStaff(user);
  const [editing, setEditing] = useState<{ list: AudioList | null } | null>(null);
  const lists = useAudioLists(editing === null);
  const remove = useToastMutation(useDeleteAudioList(), {
    success: ClassroomTexts.audioListDeleted,
    errorTitle: ClassroomMessages.deleteAudioListFailed,
    error: ClassroomTexts.tryAgainLater,
    log: 'Deleting the audio list failed',
  });

  const confirmDelete = useConfirmedAction(async (list: AudioList) => {
    await remove.run(list.id);
  });

  return (
    <PageContainer>
      <PageHeader
        title={ClassroomTexts.audioListsTitle}
        description={ClassroomTexts.audioListsDescription}
        actions={
          staff && editing === null ? (
            <Button onClick={() => setEditing({ list: null })}>{ClassroomTexts.createAudioList}</Button>
          ) : undefined
        }
      />
      {editing ? (
        <AudioListForm list={editing.list} onDone={() => setEditing(null)} />
      ) : (
        <QueryState
          query={lists}
          loading="Loading audio lists…"
          errorTitle={ClassroomTexts.fetchAudioListsFailed}
          errorText={ClassroomTexts.tryAgainLater}
          empty={
            <Card>
              <CardBody className="py-12 text-center text-slate-600">
                {staff ? ClassroomTexts.noAudioListsStaff : ClassroomTexts.noAudioLists}
              </CardBody>
            </Card>
          }
        >
          {(all) => (
            <ul className="grid grid-cols-1 gap-4 lg:grid-cols-2" aria-label="Audio lists">
              {all.map((list) => (
                <li key={list.id} className="flex">
                  <Card className="flex w-full flex-col">
                    <CardHeader
                      as="h2"
                      title={list.title}
                      description={
                        <>
                          {list.creatorName ? `By ${list.creatorName}` : null}
                          {list.creatorName && list.createdAt ? ' · ' : null}
                          {list.createdAt ? formatDate(list.createdAt) : null}
                        </>
                      }
                    />
                    <CardBody className="flex-1 space-y-3">
                      {list.description ? (
                        <p className="whitespace-pre-line text-sm text-slate-700">{list.description}</p>
                      ) : null}
                      <ul className="space-y-2" aria-label={`Files of ${list.title}`}>
                        {list.audioFiles.map((file, i) => (
                          <FilePlayer key={`${i}-${file.url}`} name={file.name} url={file.url} />
                        ))}
                      </ul>
                    </CardBody>
                    {list.canEdit ? (
                      <CardFooter>
                        <Button
                          variant="outline"
                          size="sm"
                          onClick={() => setEditing({ list })}
                          aria-label={`Edit ${list.title}`}
                        >
                          Edit
                        </Button>
                        <Button
                          variant="danger"
                          size="sm"
                          onClick={() => confirmDelete.ask(list)}
                          aria-label={`Delete ${list.title}`}
                        >
                          Delete
                        </Button>
                      </CardFooter>
                    ) : null}
                  </Card>
                </li>
              ))}
            </ul>
          )}
        </QueryState>
      )}
      <ConfirmDialog
        open={confirmDelete.target !== null}
        title="Delete audio list"
        message={<p>{ClassroomTexts.deleteAudioListConfirm}</p>}
        confirmLabel="Delete"
        busy={confirmDelete.busy}
        onConfirm={() => void confirmDelete.confirm()}
        onCancel={confirmDelete.cancel}
      />
    </PageContainer>
  );
}

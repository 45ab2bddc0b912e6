import { useState } from 'react';
import { ChatMessages, type Chatroom } from '@district/contracts/chat';
import {
  Badge,
  Button,
  ButtonLink,
  ConfirmDialog,
  QueryState,
  Table,
  TableBody,
  TableCell,
  TableEmpty,
  TableHead,
  TableHeaderCell,
  TableRow,
  useToastMutation,
} from '@/components/ui';
import { PageContainer, PageHeader } from '@/components/layout';
import { cn } from '@/lib/cn';
import { formatFullDate } from '@/lib/format';
import { useConfirmedAction } from '@/lib/use-confirmed-action';
import { ChatAdminMessages } from '../chat.constants';
import { useAdminChatrooms, useDeleteChatroom, useSetChatroomActive } from '../api/admin-chatrooms';
import { chatroomActionError, CreateChatroomModal } from './create-chatroom-modal';

/** Chatroom management (/admin/chatrooms; accounts spec §2, §5–§9): table, create modal, active toggle, delete. */
export function AdminChatroomsPage() {
  const rooms = useAdminChatrooms();
  const setActive = useToastMutation(useSetChatroomActive(), {
    error: (err) => chatroomActionError(err, ChatMessages.updateChatroomStatusFailed),
    log: 'Chatroom status change failed',
  });
  const deleteRoom = useToastMutation(useDeleteChatroom(), {
    success: ChatAdminMessages.chatroomDeleted,
    error: (err) => chatroomActionError(err, ChatMessages.deleteChatroomFailed),
    log: 'Chatroom delete failed',
  });
  const [creating, setCreating] = useState(false);
  const [busyId, setBusyId] = useState<string | null>(null);

  const toggle = async (room: Chatroom) => {
    setBusyId(room.id);
    await setActive.run({ id: room.id, isActive: !room.isActive });
    setBusyId(null);
  };

  const remove = useConfirmedAction(async (room: Chatroom) => {
    await deleteRoom.run(room.id);
  });
  const deleting = remove.target;
  const list = rooms.data ?? [];

  return (
    <PageContainer>
      <PageHeader
        title="Chatroom Management"
        description="Create chatrooms for your classes, invite students, and open or close rooms."
        actions={
          <>
            <ButtonLink to="/admin" variant="outline">
              Back to Dashboard
            </ButtonLink>
            <Button onClick={() => setCreating(true)}>Create Chatroom</Button>
          </>
        }
      />

      <QueryState
        query={rooms}
        loading="Loading chatrooms…"
        errorTitle={ChatAdminMessages.chatroomsLoadFailed}
        errorText="Please try again in a moment."
        retryLabel="Try again"
      >
        {() => (
          <Table caption="Chatrooms">
            <TableHead>
              <tr>
                <TableHeaderCell>Name</TableHeaderCell>
                <TableHeaderCell>Description</TableHeaderCell>
                <TableHeaderCell>Invited</TableHeaderCell>
                <TableHeaderCell>Status</TableHeaderCell>
                <TableHeaderCell>Created</TableHeaderCell>
                <TableHeaderCell className="text-right">Actions</TableHeaderCell>
              </tr>
            </TableHead>
            <TableBody>
              {list.length === 0 ? (
                <TableEmpty colSpan={6}>No chatrooms yet. Create one to get your class talking.</TableEmpty>
              ) : (
                list.map((room) => {
                  const busy = busyId === room.id;
                  const invited = room.invitedUserIds.length;
                  return (
                    <TableRow key={room.id} data-chatroom-id={room.id}>
                      <TableCell className="font-semibold text-slate-900">{room.name}</TableCell>
                      <TableCell className="max-w-xs break-words text-slate-600">
                        {room.description || '—'}
                      </TableCell>
                      <TableCell>
                        <span aria-label={`${invited} invited`}>{invited}</span>
                      </TableCell>
                      <TableCell>
                        <div className="flex items-center gap-3">
                          <button
                            type="button"
                            role="switch"
                            aria-checked={room.isActive}
                            aria-label={`Active: ${room.name}`}
                            disabled={busy}
                            onClick={() => void toggle(room)}
                            className={cn(
                              'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors disabled:opacity-60',
                              room.isActive ? 'bg-emerald-600' : 'bg-slate-300',
                            )}
                          >
                            <span
                              aria-hidden="true"
                              className={cn(
                                'inline-block size-5 rounded-full bg-white shadow transition-transform',
                                room.isActive ? 'translate-x-5' : 'translate-x-0.5',
                              )}
                            />
                          </button>
                          {room.isActive ? <Badge tone="success">Active</Badge> : <Badge>Inactive</Badge>}
                        </div>
                      </TableCell>
                      <TableCell className="whitespace-nowrap text-xs">
                        {formatFullDate(room.createdAt)}
                      </TableCell>
                      <TableCell>
                        <div className="flex justify-end">
                          <Button
                            size="sm"
                            variant="danger"
                            aria-label={`Delete ${room.name}`}
                            onClick={() => remove.ask(room)}
                          >
                            Delete
                          </Button>
                        </div>
                      </TableCell>
                    </TableRow>
                  );
                })
              )}
            </TableBody>
          </Table>
        )}
      </QueryState>

      <CreateChatroomModal open={creating} onClose={() => setCreating(false)} />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete chatroom"
        message={
          deleting ? (
            <p>
              Are you sure you want to delete <strong>{deleting.name}</strong>? Everyone in it is disconnected
              and this cannot be undone.
            </p>
          ) : null
        }
        confirmLabel="Delete Chatroom"
        busy={remove.busy}
        onConfirm={() => void remove.confirm()}
        onCancel={remove.cancel}
      />
    </PageContainer>
  );
}

import { useState, type FormEvent } from 'react';
import { CHATROOM_DESCRIPTION_MAX, CHATROOM_NAME_MAX, ChatMessages } from '@district/contracts/chat';
import {
  Alert,
  Badge,
  Button,
  Modal,
  QueryState,
  Spinner,
  TextAreaField,
  TextField,
  useToastMutation,
} from '@/components/ui';
import { ApiError } from '@/lib/api-client';
import { ChatAdminMessages } from '../chat.constants';
import { useCreateChatroom, useInvitableUsers } from '../api/admin-chatrooms';

/** Accounts spec §9: the invite list scrolls at 200 px. */
export const INVITE_LIST_HEIGHT_PX = 200;

/** Spec §8: a failure the server explained is 'Error: {message}', anything else the screen's own fallback. */
export function chatroomActionError(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.fromServer ? ChatAdminMessages.serverError(err.message) : fallback;
}

function InviteList({
  selected,
  onToggle,
}: {
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
}) {
  const users = useInvitableUsers(true);
  return (
    <fieldset>
      <legend className="mb-1 block text-sm font-medium text-slate-700">
        Invite users{selected.size > 0 ? ` (${selected.size} selected)` : ''}
      </legend>
      <div
        data-testid="invite-list"
        className="overflow-y-auto rounded-lg border border-slate-300 bg-white"
        style={{ height: INVITE_LIST_HEIGHT_PX }}
      >
        <QueryState
          query={users}
          loadingView={
            <div className="flex h-full items-center justify-center">
              <Spinner label="Loading people to invite…" />
            </div>
          }
          retryLabel="Retry"
          errorView={({ error, retry }) => (
            <div className="p-3">
              <Alert tone="error" title={ChatAdminMessages.invitableUsersFailed}>
                {error instanceof ApiError && error.fromServer ? <p>{error.message}</p> : null}
                {retry('mt-2', 'sm')}
              </Alert>
            </div>
          )}
          empty={<p className="p-3 text-sm text-slate-500">{ChatAdminMessages.noInvitableUsers}</p>}
        >
          {(list) => (
            <ul className="divide-y divide-slate-100">
              {list.map((u) => (
                <li key={u.id}>
                  <label className="flex cursor-pointer items-center gap-3 px-3 py-2 text-sm hover:bg-slate-50">
                    <input
                      type="checkbox"
                      className="size-4 rounded border-slate-300 text-brand-700"
                      checked={selected.has(u.id.toLowerCase())}
                      onChange={() => onToggle(u.id.toLowerCase())}
                    />
                    <span className="min-w-0 flex-1">
                      <span className="font-medium text-slate-900">{u.name}</span>{' '}
                      <span className="text-xs text-slate-500">@{u.username}</span>
                    </span>
                    <Badge tone={u.role === 'teacher' ? 'purple' : 'brand'}>
                      {u.role === 'teacher' ? 'Teacher' : 'Student'}
                    </Badge>
                  </label>
                </li>
              ))}
            </ul>
          )}
        </QueryState>
      </div>
    </fieldset>
  );
}

/** The create modal (accounts spec §2): name (required), description and the scrollable invite list. */
export function CreateChatroomModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const create = useToastMutation(useCreateChatroom(), {
    success: ChatAdminMessages.chatroomCreated,
    error: (err) => chatroomActionError(err, ChatMessages.createChatroomFailed),
    log: 'Creating the chatroom failed',
  });
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [invited, setInvited] = useState<Set<string>>(() => new Set());
  const [nameError, setNameError] = useState<string | undefined>();

  const reset = () => {
    setName('');
    setDescription('');
    setInvited(new Set());
    setNameError(undefined);
  };
  const close = () => {
    if (create.isPending) return;
    reset();
    onClose();
  };

  const toggle = (id: string) =>
    setInvited((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setNameError(ChatMessages.enterChatroomName);
      return;
    }
    setNameError(undefined);
    const outcome = await create.run({
      name: trimmed,
      description: description.trim(),
      invitedUserIds: [...invited],
    });
    if (!outcome.ok) return;
    reset();
    onClose();
  };

  return (
    <Modal
      open={open}
      onClose={close}
      title="Create Chatroom"
      description="New chatrooms are active. Invited students see the room in their chat; teachers and admins see every active room."
      size="lg"
      footer={
        <>
          <Button variant="outline" onClick={close} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" form="create-chatroom-form" loading={create.isPending}>
            Create Chatroom
          </Button>
        </>
      }
    >
      <form
        id="create-chatroom-form"
        onSubmit={(e) => void submit(e)}
        className="space-y-4"
        noValidate
        aria-label="Create chatroom"
      >
        <TextField
          label="Name"
          value={name}
          maxLength={CHATROOM_NAME_MAX}
          required
          error={nameError}
          onChange={(e) => setName(e.target.value)}
        />
        <TextAreaField
          label="Description"
          value={description}
          maxLength={CHATROOM_DESCRIPTION_MAX}
          rows={3}
          onChange={(e) => setDescription(e.target.value)}
        />
        {open ? <InviteList selected={invited} onToggle={toggle} /> : null}
      </form>
    </Modal>
  );
}

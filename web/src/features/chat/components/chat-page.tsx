import { useEffect, useRef, useState, type FormEvent } from 'react';
import { CHAT_NAME_MAX, ChatLiveMessages, type ChatRole } from '@district/contracts/chat';
import {
  Alert,
  Button,
  ButtonLink,
  Card,
  QueryState,
  SelectField,
  Spinner,
  TextField,
  useToast,
} from '@/components/ui';
import { PageContainer, PageHeader } from '@/components/layout';
import { isAdmin, isTeacherOrAdmin, useSession } from '@/lib/auth';
import { ChatRoomTexts } from '../chat.constants';
import { useChatrooms } from '../api/chatrooms';
import { chatMessages } from '../live/chat-log';
import { useLiveChat } from '../live/use-live-chat';
import { Composer, MessageWindow, ParticipantsList, SlowModeSelect } from './chat-room-parts';

/** Tools spec §7: the login shortcuts the chat screen links to, and the admins' way to create a room. */
const QUICK_LOGIN_TEACHER = '/api/auth/quick-login';
const QUICK_LOGIN_STUDENT = '/api/auth/quick-login?type=student';

function QuickLinks({ admin }: { admin: boolean }) {
  return (
    <Card className="p-4">
      <h2 className="text-sm font-semibold text-slate-900">Quick links</h2>
      <ul className="mt-2 space-y-1 text-sm">
        <li>
          <a className="font-medium text-brand-700 hover:underline" href={QUICK_LOGIN_TEACHER}>
            Teacher login
          </a>
        </li>
        <li>
          <a className="font-medium text-brand-700 hover:underline" href={QUICK_LOGIN_STUDENT}>
            Student login
          </a>
        </li>
        {admin ? (
          <li>
            <a className="font-medium text-brand-700 hover:underline" href="/admin">
              Create a chatroom
            </a>
          </li>
        ) : null}
      </ul>
    </Card>
  );
}

/**
 * The live chat room (/listen-to-type; tools spec §2, §4 Chat, §5, §7, §8, §9): pick a room, enter a name,
 * join, chat, leave. Beyond the spec: automatic reconnect with catch-up, moderation for teachers, PDF export with
 * real (searchable) accented text.
 */
export function ChatPage() {
  const { user } = useSession();
  const { toast } = useToast();
  const rooms = useChatrooms();
  const chat = useLiveChat();
  const [roomId, setRoomId] = useState('');
  const [name, setName] = useState(() => user?.name ?? '');
  const [exporting, setExporting] = useState(false);

  const staff = isTeacherOrAdmin(user);
  const role: ChatRole = user?.isAdmin ? 'admin' : user?.role === 'teacher' ? 'teacher' : 'student';
  const status = chat.status;
  const inRoom = status !== null && status.kind !== 'connecting';
  const roomList = rooms.data ?? [];
  const selectedRoom = roomList.find((r) => r.id === roomId) ?? null;

  // Joining replaces the Join form by the room and leaving does the reverse, taking the focused button with it:
  // focus follows to the composer (or back to the room picker) instead of dropping to the top of the page.
  const panelRef = useRef<HTMLDivElement>(null);
  const wasInRoom = useRef(inRoom);
  useEffect(() => {
    if (wasInRoom.current === inRoom) return;
    wasInRoom.current = inRoom;
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    panelRef.current?.querySelector<HTMLElement>(inRoom ? 'textarea' : 'select, input')?.focus();
  }, [inRoom]);

  const join = (event: FormEvent) => {
    event.preventDefault();
    // Spec §5: a chosen room and a non-empty name (typed, or the account name as default).
    if (!selectedRoom) {
      toast({ type: 'warning', message: ChatLiveMessages.chooseRoom });
      return;
    }
    const chosen = name.trim() || user?.name.trim() || '';
    if (!chosen) {
      toast({ type: 'warning', message: ChatLiveMessages.enterName });
      return;
    }
    if (chosen.length > CHAT_NAME_MAX) {
      toast({ type: 'warning', message: ChatLiveMessages.nameTooLong });
      return;
    }
    chat.join(selectedRoom, chosen, role);
  };

  const leave = () => {
    chat.leave();
    // Spec §4: Leave clears messages, names and room (an empty name falls back to the account name on the next join).
    setRoomId('');
    setName('');
  };

  const exportPdf = async () => {
    if (!staff) {
      toast({ type: 'error', message: ChatLiveMessages.onlyTeachersExport });
      return;
    }
    const messages = chatMessages(chat.log);
    if (messages.length === 0) {
      toast({ type: 'warning', message: ChatLiveMessages.noMessagesToExport });
      return;
    }
    setExporting(true);
    try {
      const { exportChatPdf } = await import('../pdf/export-chat');
      await exportChatPdf({ roomName: chat.room?.name ?? 'Chatroom', messages, exportedBy: user?.name });
      toast({ type: 'success', message: ChatLiveMessages.exportSucceeded });
    } catch (err) {
      console.error('Chat PDF export failed', err);
      toast({ type: 'error', message: ChatLiveMessages.exportFailed });
    } finally {
      setExporting(false);
    }
  };

  return (
    <PageContainer>
      <PageHeader
        title="Chatroom"
        description="Listen to Type: pick a chatroom, enter your name and chat live with your class."
        actions={
          <ButtonLink to="/educational-tools" variant="outline">
            Back to Tools
          </ButtonLink>
        }
      />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <div ref={panelRef} className="min-w-0 space-y-4">
          {!inRoom ? (
            <Card className="p-5">
              <h2 className="text-lg font-semibold text-slate-900">Join a chatroom</h2>
              {chat.problem ? (
                <p className="mt-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">{chat.problem}</p>
              ) : null}
              <QueryState
                query={rooms}
                loadingView={
                  <div className="flex justify-center py-8">
                    <Spinner label="Loading chatrooms…" />
                  </div>
                }
                errorTitle={ChatRoomTexts.roomsLoadFailed}
                errorText="Please try again in a moment."
                retryLabel="Try again"
                className="mt-4"
              >
                {() => (
                  <form className="mt-4 space-y-4" onSubmit={join} noValidate aria-label="Join a chatroom">
                    {roomList.length === 0 ? (
                      <p className="text-sm text-slate-600">{ChatRoomTexts.noRooms}</p>
                    ) : (
                      <SelectField
                        label="Chatroom"
                        value={roomId}
                        onChange={(e) => setRoomId(e.target.value)}
                      >
                        <option value="">Select a chatroom</option>
                        {roomList.map((r) => (
                          <option key={r.id} value={r.id}>
                            {r.name}
                          </option>
                        ))}
                      </SelectField>
                    )}
                    {selectedRoom?.description ? (
                      <p className="-mt-2 text-sm text-slate-600">{selectedRoom.description}</p>
                    ) : null}
                    <TextField
                      label="Your name"
                      value={name}
                      maxLength={CHAT_NAME_MAX}
                      placeholder={user?.name}
                      autoComplete="nickname"
                      onChange={(e) => setName(e.target.value)}
                    />
                    <Button
                      type="submit"
                      loading={status?.kind === 'connecting'}
                      disabled={roomList.length === 0}
                    >
                      {status?.kind === 'connecting' ? 'Joining…' : 'Join'}
                    </Button>
                  </form>
                )}
              </QueryState>
            </Card>
          ) : (
            <Card className="space-y-3 p-4">
              <div className="flex flex-wrap items-center gap-3">
                <div className="min-w-0 flex-1">
                  <h2 className="truncate text-lg font-semibold text-slate-900">{chat.room?.name}</h2>
                  <p className="text-xs text-slate-500">
                    {chat.log.self ? `You are chatting as ${chat.log.self.name}` : null}
                  </p>
                </div>
                <span role="status" className="text-xs font-semibold">
                  {status.kind === 'reconnecting' ? (
                    <span className="text-amber-700">{ChatRoomTexts.reconnecting}</span>
                  ) : (
                    <span className="text-emerald-700">Connected</span>
                  )}
                </span>
                {staff ? (
                  <Button variant="outline" size="sm" loading={exporting} onClick={() => void exportPdf()}>
                    Export PDF
                  </Button>
                ) : (
                  <span className="text-xs text-slate-500">{ChatLiveMessages.onlyTeachersExport}</span>
                )}
                <Button variant="danger" size="sm" onClick={leave}>
                  Leave
                </Button>
              </div>
              {status.kind === 'reconnecting' ? (
                <Alert tone="warning">
                  {status.reason === 'restart'
                    ? ChatLiveMessages.reconnecting
                    : status.reason === 'slow'
                      ? `${ChatLiveMessages.tooSlow} ${ChatRoomTexts.reconnecting}`
                      : ChatRoomTexts.reconnecting}
                </Alert>
              ) : null}
              {chat.log.canModerate ? (
                <div className="flex flex-wrap items-center gap-4 rounded-lg bg-slate-50 px-3 py-2">
                  <SlowModeSelect value={chat.log.slowModeSeconds} onChange={chat.setSlowMode} />
                </div>
              ) : chat.log.slowModeSeconds > 0 ? (
                <p className="text-xs text-slate-600">
                  {ChatLiveMessages.slowMode(chat.log.slowModeSeconds)}
                </p>
              ) : null}
              <MessageWindow
                entries={chat.log.entries}
                canModerate={chat.log.canModerate}
                selfName={chat.log.self?.name ?? null}
                onRemove={chat.removeMessage}
                onSendAgain={chat.sendAgain}
              />
              <Composer disabled={status.kind !== 'joined'} onSend={chat.send} />
            </Card>
          )}
        </div>
        <aside className="space-y-4">
          {inRoom ? (
            <ParticipantsList
              participants={chat.log.participants}
              selfName={chat.log.self?.name ?? null}
              canModerate={chat.log.canModerate}
              onMute={chat.mute}
            />
          ) : null}
          <QuickLinks admin={isAdmin(user)} />
        </aside>
      </div>
    </PageContainer>
  );
}

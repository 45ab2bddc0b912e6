import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import {
  CHAT_MESSAGE_MAX,
  CHAT_MUTE_MINUTES,
  CHAT_SLOW_MODE_SECONDS,
  CHAT_WINDOW_HEIGHT_PX,
  type ChatRole,
} from '@district/contracts/chat';
import { Badge, Button, type BadgeTone } from '@/components/ui';
import { ChatRoomTexts } from '../chat.constants';
import type { ChatEntry, Participant } from '../live/chat-log';

const ROLE_BADGES: Record<ChatRole, { label: string; tone: BadgeTone }> = {
  student: { label: 'Student', tone: 'brand' },
  teacher: { label: 'Teacher', tone: 'purple' },
  admin: { label: 'Admin', tone: 'warning' },
};

export function RoleBadge({ role }: { role: ChatRole }) {
  const badge = ROLE_BADGES[role] ?? ROLE_BADGES.student;
  return <Badge tone={badge.tone}>{badge.label}</Badge>;
}

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
function formatTime(timestamp: string): string {
  const d = new Date(timestamp);
  return Number.isNaN(d.getTime()) ? '' : timeFormat.format(d);
}

/**
 * The message window: exactly 300 px high (tools spec §2, §9), scrolled to the newest line, announced politely.
 * Everything typed by people is rendered as text (React escapes it); nothing is ever parsed as HTML.
 */
export function MessageWindow({
  entries,
  canModerate,
  selfName,
  onRemove,
  onSendAgain,
}: {
  entries: ChatEntry[];
  canModerate: boolean;
  /** Shown on this screen's own messages while they are on their way. */
  selfName: string | null;
  onRemove: (seq: number) => void;
  onSendAgain: (ref: string) => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const last = entries.at(-1)?.key;
  useEffect(() => {
    const el = ref.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [last]);

  return (
    // The log role sits on a wrapper so the messages stay a real list for assistive technology.
    <div
      ref={ref}
      role="log"
      aria-live="polite"
      aria-relevant="additions"
      aria-label="Messages"
      data-testid="chat-window"
      className="overflow-y-auto rounded-xl border border-slate-200 bg-slate-50 p-3"
      style={{ height: CHAT_WINDOW_HEIGHT_PX }}
    >
      <ol className="space-y-2">
        {entries.length === 0 ? (
          <li className="py-8 text-center text-sm text-slate-500">No messages yet. Say hello!</li>
        ) : null}
        {entries.map((entry) => {
          if (entry.kind === 'message') {
            return (
              <li
                key={entry.key}
                data-seq={entry.seq}
                className="group rounded-lg bg-white px-3 py-2 shadow-sm"
              >
                <div className="flex flex-wrap items-center gap-2 text-sm">
                  <span className="font-semibold text-slate-900">{entry.name}</span>
                  <RoleBadge role={entry.role} />
                  <time dateTime={entry.timestamp} className="text-xs text-slate-500">
                    {formatTime(entry.timestamp)}
                  </time>
                  {canModerate ? (
                    <button
                      type="button"
                      onClick={() => onRemove(entry.seq)}
                      aria-label={`Remove message from ${entry.name}`}
                      className="ml-auto rounded px-1.5 text-xs font-medium text-red-700 hover:bg-red-50"
                    >
                      Remove
                    </button>
                  ) : null}
                </div>
                <p className="mt-1 whitespace-pre-wrap break-words text-sm text-slate-800">{entry.text}</p>
              </li>
            );
          }
          if (entry.kind === 'outgoing') {
            const failed = entry.state === 'failed';
            return (
              <li
                key={entry.key}
                data-outgoing={entry.state}
                className={`rounded-lg px-3 py-2 ${failed ? 'border border-red-200 bg-red-50' : 'bg-white/70'}`}
              >
                <div className="flex flex-wrap items-center gap-2 text-sm">
                  <span className="font-semibold text-slate-900">{selfName}</span>
                  <span className={`text-xs ${failed ? 'font-medium text-red-700' : 'text-slate-500'}`}>
                    {failed ? ChatRoomTexts.notSent : ChatRoomTexts.sending}
                  </span>
                  {failed ? (
                    <button
                      type="button"
                      onClick={() => onSendAgain(entry.ref)}
                      className="ml-auto rounded px-1.5 text-xs font-medium text-brand-700 hover:bg-brand-50"
                    >
                      {ChatRoomTexts.sendAgain}
                    </button>
                  ) : null}
                </div>
                <p className="mt-1 whitespace-pre-wrap break-words text-sm text-slate-600">{entry.text}</p>
              </li>
            );
          }
          return (
            <li key={entry.key} className="text-center text-xs italic text-slate-500">
              {entry.text}
            </li>
          );
        })}
      </ol>
    </div>
  );
}

/** Enter sends; Shift+Enter starts a new line (tools spec §5). */
export function Composer({ disabled, onSend }: { disabled: boolean; onSend: (text: string) => boolean }) {
  const [draft, setDraft] = useState('');
  const id = useId();
  const submit = () => {
    if (!draft.trim()) return;
    if (onSend(draft)) setDraft('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    submit();
  };
  return (
    <form
      className="flex items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <div className="min-w-0 flex-1">
        <label htmlFor={id} className="sr-only">
          Message
        </label>
        <textarea
          id={id}
          value={draft}
          rows={2}
          maxLength={CHAT_MESSAGE_MAX}
          disabled={disabled}
          placeholder="Type a message… (Enter to send, Shift+Enter for a new line)"
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
          className="block w-full resize-none rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/20 disabled:bg-slate-100"
        />
      </div>
      <Button type="submit" disabled={disabled || !draft.trim()}>
        Send
      </Button>
    </form>
  );
}

/** Who is in the room; moderators can mute anyone else for 1, 5, 10 or 30 minutes (or unmute). */
export function ParticipantsList({
  participants,
  selfName,
  canModerate,
  onMute,
}: {
  participants: Participant[];
  selfName: string | null;
  canModerate: boolean;
  onMute: (name: string, minutes: number) => void;
}) {
  return (
    <section
      aria-labelledby="chat-participants"
      className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm"
    >
      <h2 id="chat-participants" className="text-sm font-semibold text-slate-900">
        Participants ({participants.length})
      </h2>
      <ul className="mt-3 space-y-2" aria-label="Participants">
        {participants.map((p) => {
          const self = selfName !== null && p.name.toLowerCase() === selfName.toLowerCase();
          return (
            <li key={p.name} className="flex flex-wrap items-center gap-2 text-sm">
              <span className="min-w-0 flex-1 truncate font-medium text-slate-800">
                {p.name}
                {self ? <span className="ml-1 text-xs font-normal text-slate-500">(you)</span> : null}
              </span>
              <RoleBadge role={p.role} />
              {canModerate && !self ? (
                <select
                  aria-label={`Mute ${p.name}`}
                  value=""
                  onChange={(e) => {
                    if (e.target.value !== '') onMute(p.name, Number(e.target.value));
                  }}
                  className="rounded-md border border-slate-300 bg-white px-1.5 py-1 text-xs"
                >
                  <option value="">Mute…</option>
                  {CHAT_MUTE_MINUTES.map((m) => (
                    <option key={m} value={m}>
                      {m === 1 ? '1 minute' : `${m} minutes`}
                    </option>
                  ))}
                  <option value={0}>Unmute</option>
                </select>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** Moderators: at most one message per N seconds for students (0 = off). */
export function SlowModeSelect({ value, onChange }: { value: number; onChange: (seconds: number) => void }) {
  const id = useId();
  const options: number[] = CHAT_SLOW_MODE_SECONDS.includes(value as (typeof CHAT_SLOW_MODE_SECONDS)[number])
    ? [...CHAT_SLOW_MODE_SECONDS]
    : [...CHAT_SLOW_MODE_SECONDS, value].sort((a, b) => a - b);
  return (
    <div className="flex items-center gap-2 text-sm">
      <label htmlFor={id} className="font-medium text-slate-700">
        Slow mode
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm"
      >
        {options.map((s) => (
          <option key={s} value={s}>
            {s === 0 ? 'Off' : `${s} seconds`}
          </option>
        ))}
      </select>
    </div>
  );
}

// Only this module (reached through export-chat.ts, itself loaded with import()) imports jspdf, so neither the
// library nor the font is fetched before a teacher exports.
import { jsPDF } from 'jspdf';
import type { ChatRole } from '@district/contracts/chat';

export interface ChatPdfMessage {
  name: string;
  role: ChatRole;
  text: string;
  timestamp: string;
}

export interface ChatPdfInput {
  roomName: string;
  messages: readonly ChatPdfMessage[];
  /** The TrueType font to embed (Noto Sans, Latin-1 + Latin Extended-A): accented Spanish prints as real text. */
  font: Uint8Array;
  /** Who exported it (shown in the header). */
  exportedBy?: string;
  /** Fixed by tests for identical bytes; defaults to now. */
  createdAt?: Date;
  /** Time zone of the printed times; the browser's by default (tests pin one). */
  timeZone?: string;
}

/** A4 portrait in millimetres (tools spec §9: chat PDF A4). */
const PAGE = { width: 210, height: 297, margin: 16 } as const;
const FONT_FILE = 'NotoSans-Regular-Latin.ttf';
const FONT_NAME = 'NotoSansLatin';
const PT_TO_MM = 25.4 / 72;

const ROLE_LABELS: Record<ChatRole, string> = { student: 'Student', teacher: 'Teacher', admin: 'Admin' };

/** Code points the embedded subset draws (see web/scripts/subset-chat-font.sh); anything else prints as '?'. */
const EXTRA_CODE_POINTS = new Set([
  0x2013, 0x2014, 0x2018, 0x2019, 0x201a, 0x201c, 0x201d, 0x201e, 0x2022, 0x2026, 0x2039, 0x203a, 0x20ac,
  0x2122,
]);
function drawable(code: number): boolean {
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0x17f) || EXTRA_CODE_POINTS.has(code);
}

/** NFC text the font can draw: tabs as spaces, other control characters dropped, unknown characters as '?'. */
export function chatPdfText(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '\n') out += ch;
    else if (ch === '\t') out += '    ';
    else if (
      code < 0x20 ||
      (code >= 0x7f && code < 0xa0) ||
      (code >= 0xfe00 && code <= 0xfe0f) ||
      code === 0x200d
    )
      continue;
    else out += drawable(code) ? ch : '?';
  }
  return out;
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function hash(text: string, seed: number): number {
  let h = 0x811c9dc5 ^ seed;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

const lineHeight = (pt: number) => pt * PT_TO_MM * 1.3;

/** 'chat_{room}_{yyyy-mm-dd}.pdf', the room name reduced to lower-case letters, digits and underscores. */
export function chatPdfFileName(roomName: string, date: Date): string {
  const slug = roomName
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-zA-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
  return `chat_${slug || 'room'}_${date.toISOString().slice(0, 10)}.pdf`;
}

/**
 * The conversation as an A4 PDF: title, room, export time, then every message as "Name (Role) · time" over its
 * wrapped text, page numbers at the foot. Pure: input → bytes.
 */
export function buildChatPdf(input: ChatPdfInput): Uint8Array {
  const createdAt = input.createdAt ?? new Date();
  const doc = new jsPDF({ unit: 'mm', format: 'a4', orientation: 'portrait', compress: true });
  doc.setCreationDate(createdAt);
  const fingerprint = `${input.roomName}|${input.messages.length}|${createdAt.toISOString()}`;
  doc.setFileId(
    [0, 1, 2, 3]
      .map((i) => hash(fingerprint, i).toString(16).padStart(8, '0'))
      .join('')
      .toUpperCase(),
  );
  doc.setDocumentProperties({
    title: `Chat Conversation: ${chatPdfText(input.roomName)}`,
    creator: 'District Learning chat',
  });
  doc.addFileToVFS(FONT_FILE, base64(input.font));
  doc.addFont(FONT_FILE, FONT_NAME, 'normal');
  doc.setFont(FONT_NAME, 'normal');

  const time = new Intl.DateTimeFormat('en-US', {
    hour: '2-digit',
    minute: '2-digit',
    timeZone: input.timeZone,
  });
  const stamp = new Intl.DateTimeFormat('en-US', {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: input.timeZone,
  });
  const width = PAGE.width - 2 * PAGE.margin;
  const bottom = PAGE.height - PAGE.margin - 8;
  let y = PAGE.margin + 6;

  doc.setTextColor(15, 23, 42);
  doc.setFontSize(18);
  doc.text('Chat Conversation', PAGE.margin, y);
  y += lineHeight(18);
  doc.setFontSize(13);
  for (const line of doc.splitTextToSize(chatPdfText(input.roomName), width) as string[]) {
    doc.text(line, PAGE.margin, y);
    y += lineHeight(13);
  }
  doc.setFontSize(9);
  doc.setTextColor(100, 116, 139);
  const by = input.exportedBy ? ` by ${chatPdfText(input.exportedBy)}` : '';
  doc.text(
    `Exported ${stamp.format(createdAt)}${by} · ${input.messages.length} message${input.messages.length === 1 ? '' : 's'}`,
    PAGE.margin,
    y,
  );
  y += 3;
  doc.setDrawColor(203, 213, 225);
  doc.setLineWidth(0.3);
  doc.line(PAGE.margin, y, PAGE.width - PAGE.margin, y);
  y += 7;

  for (const message of input.messages) {
    const when = new Date(message.timestamp);
    const header = `${chatPdfText(message.name)} (${ROLE_LABELS[message.role] ?? message.role})${Number.isNaN(when.getTime()) ? '' : ` · ${time.format(when)}`}`;
    doc.setFontSize(11);
    const lines = chatPdfText(message.text)
      .split('\n')
      .flatMap((paragraph) => doc.splitTextToSize(paragraph, width - 4) as string[]);
    // Keep the header with at least its first line of text.
    if (y + lineHeight(10) + lineHeight(11) > bottom) {
      doc.addPage();
      y = PAGE.margin + 6;
    }
    doc.setFontSize(10);
    doc.setTextColor(
      message.role === 'student' ? 30 : 109,
      message.role === 'student' ? 64 : 40,
      message.role === 'student' ? 175 : 217,
    );
    doc.text(header, PAGE.margin, y);
    y += lineHeight(10);
    doc.setFontSize(11);
    doc.setTextColor(15, 23, 42);
    for (const line of lines) {
      if (y > bottom) {
        doc.addPage();
        y = PAGE.margin + 6;
      }
      doc.text(line, PAGE.margin + 4, y);
      y += lineHeight(11);
    }
    y += 2.5;
  }

  const pages = doc.getNumberOfPages();
  doc.setFontSize(8);
  doc.setTextColor(100, 116, 139);
  for (let page = 1; page <= pages; page++) {
    doc.setPage(page);
    doc.text(`Page ${page} of ${pages}`, PAGE.width / 2, PAGE.height - PAGE.margin / 2, { align: 'center' });
  }
  return new Uint8Array(doc.output('arraybuffer'));
}

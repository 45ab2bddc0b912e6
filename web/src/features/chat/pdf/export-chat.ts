import { downloadBytes } from '@/lib/download-file';
import { CHAT_PDF_FONT_URL } from '../chat.constants';
import { buildChatPdf, chatPdfFileName, type ChatPdfMessage } from './chat-pdf';

let fontRequest: Promise<Uint8Array> | null = null;

/** The embedded font, fetched on the first export only and kept for the next (a failed fetch is tried again). */
function loadChatFont(): Promise<Uint8Array> {
  fontRequest ??= fetch(CHAT_PDF_FONT_URL, { credentials: 'same-origin' })
    .then(async (res) => {
      if (!res.ok) throw new Error(`Font request failed (${res.status})`);
      return new Uint8Array(await res.arrayBuffer());
    })
    .catch((err: unknown) => {
      fontRequest = null;
      throw err;
    });
  return fontRequest;
}

/** Builds the conversation's PDF and downloads it. Rejects when the font or the PDF cannot be made. */
export async function exportChatPdf(input: {
  roomName: string;
  messages: readonly ChatPdfMessage[];
  exportedBy?: string;
}): Promise<void> {
  const font = await loadChatFont();
  const createdAt = new Date();
  const bytes = buildChatPdf({ ...input, font, createdAt });
  downloadBytes(bytes, chatPdfFileName(input.roomName, createdAt));
}

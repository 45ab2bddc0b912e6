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

/** Saves bytes the browser built under a file name, without a server round trip. */
function downloadBytes(bytes: Uint8Array, fileName: string): void {
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: 'application/pdf' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Some browsers start the download asynchronously; revoking at once can cancel it.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Builds the conversation's PDF and downloads it. Rejects when the font or the PDF cannot be made. */
export async function exportChatPdf(input: { roomName: string; messages: readonly ChatPdfMessage[]; exportedBy?: string }): Promise<void> {
  const font = await loadChatFont();
  const createdAt = new Date();
  const bytes = buildChatPdf({ ...input, font, createdAt });
  downloadBytes(bytes, chatPdfFileName(input.roomName, createdAt));
}

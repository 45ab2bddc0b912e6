// @vitest-environment node
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildChatPdf, chatPdfFileName, chatPdfText, type ChatPdfMessage } from './chat-pdf';
import { readChatPdf } from './pdf-text.testing';

const fontPath = fileURLToPath(
  new URL('../../../../public/fonts/NotoSans-Regular-Latin.ttf', import.meta.url),
);
const font = new Uint8Array(readFileSync(fontPath));
const createdAt = new Date('2025-03-10T09:30:00Z');

const spanish = '¿Qué tal, señorita? ¡Mañana es el cumpleaños de mi pingüino! Él está aquí. ÁÉÍÓÚ Ñ Ü';
const messages: ChatPdfMessage[] = [
  { name: 'Tía Teresa', role: 'teacher', text: 'Buenos días, clase.', timestamp: '2025-03-10T09:00:00Z' },
  { name: 'Íñigo', role: 'student', text: spanish, timestamp: '2025-03-10T09:01:00Z' },
];

const hasPdftotext = (() => {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('buildChatPdf', () => {
  it('writes the accented Spanish text as real text in an embedded font', () => {
    const pdf = readChatPdf(
      buildChatPdf({
        roomName: 'Español 2 – Sección B',
        messages,
        font,
        createdAt,
        timeZone: 'UTC',
        exportedBy: 'Tía Teresa',
      }),
    );
    expect(pdf.header).toBe('%PDF-1.3');
    expect(pdf.pageCount).toBe(1);
    expect(pdf.embeddedFonts.length).toBe(1);
    const text = pdf.pages[0];
    expect(text).toContain('Chat Conversation');
    expect(text).toContain('Español 2 – Sección B');
    expect(text).toContain('Tía Teresa (Teacher) · 09:00 AM');
    expect(text).toContain('Íñigo (Student) · 09:01 AM');
    expect(text.join('\n')).toContain('¿Qué tal, señorita? ¡Mañana es el cumpleaños de mi');
    expect(text.join(' ')).toContain('pingüino! Él está aquí. ÁÉÍÓÚ Ñ Ü');
    expect(text).toContain('Page 1 of 1');
  });

  it.skipIf(!hasPdftotext)('reads back with pdftotext (poppler)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'chat-pdf-'));
    try {
      const file = path.join(dir, 'chat.pdf');
      writeFileSync(
        file,
        buildChatPdf({ roomName: 'Clase de español', messages, font, createdAt, timeZone: 'UTC' }),
      );
      const text = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
      expect(text).toContain('¿Qué tal, señorita? ¡Mañana es el cumpleaños de mi');
      expect(text).toContain('Íñigo (Student)');
      expect(text).toContain('Clase de español');
    } finally {
      if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
    }
  });

  it('continues on new pages, numbered, and keeps every message', () => {
    const many = Array.from({ length: 120 }, (_, i) => ({
      name: `Alumno ${i + 1}`,
      role: 'student' as const,
      text: `Mensaje número ${i + 1}: ¡olé!`,
      timestamp: '2025-03-10T09:00:00Z',
    }));
    const pdf = readChatPdf(
      buildChatPdf({ roomName: 'Sala', messages: many, font, createdAt, timeZone: 'UTC' }),
    );
    expect(pdf.pageCount).toBeGreaterThan(1);
    const all = pdf.pages.flat();
    for (let i = 1; i <= 120; i++) expect(all).toContain(`Mensaje número ${i}: ¡olé!`);
    expect(pdf.pages.at(-1)).toContain(`Page ${pdf.pageCount} of ${pdf.pageCount}`);
  });

  it('wraps long messages and keeps their line breaks', () => {
    const long = {
      name: 'Ana',
      role: 'student' as const,
      text: `${'palabra '.repeat(60)}\nsegunda línea`,
      timestamp: '2025-03-10T09:00:00Z',
    };
    const [page] = readChatPdf(
      buildChatPdf({ roomName: 'Sala', messages: [long], font, createdAt, timeZone: 'UTC' }),
    ).pages;
    const body = page.filter((l) => l.startsWith('palabra'));
    expect(body.length).toBeGreaterThan(1);
    expect(page).toContain('segunda línea');
  });

  it('gives identical bytes for identical input and date', () => {
    const a = buildChatPdf({ roomName: 'Sala', messages, font, createdAt, timeZone: 'UTC' });
    const b = buildChatPdf({ roomName: 'Sala', messages, font, createdAt, timeZone: 'UTC' });
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });
});

describe('chatPdfText', () => {
  it('keeps Spanish, drops control characters and prints what the font lacks as ?', () => {
    expect(chatPdfText('n\u0303o\u0301')).toBe('ñó');
    expect(chatPdfText('a\u0007b\tc')).toBe('ab    c');
    expect(chatPdfText('hola 👋 你好')).toBe('hola ? ??');
  });
});

describe('chatPdfFileName', () => {
  it('is chat_{room}_{date}.pdf with the room reduced to plain letters', () => {
    expect(chatPdfFileName('Español 2: Sección B!', new Date('2025-03-10T09:30:00Z'))).toBe(
      'chat_espanol_2_seccion_b_2025-03-10.pdf',
    );
    expect(chatPdfFileName('¡¡!!', new Date('2025-03-10T09:30:00Z'))).toBe('chat_room_2025-03-10.pdf');
  });
});

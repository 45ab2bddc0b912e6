import type { SorterState } from './word-sorter-state';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Everything the student typed is escaped: the printable page must never run what was typed into it. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]);
}

export interface PrintableInput {
  studentName: string;
  state: SorterState;
  date: Date;
}

function list(title: string, words: readonly { text: string }[]): string {
  const items = words.length
    ? words.map((w) => `<li>${escapeHtml(w.text)}</li>`).join('')
    : '<li class="empty">(no words)</li>';
  return `<section><h2>${escapeHtml(title)} <span class="count">(${words.length})</span></h2><ol>${items}</ol></section>`;
}

/** The self-contained page the export window prints: name, date and both lists side by side. */
export function buildPrintableHtml({ studentName, state, date }: PrintableInput): string {
  const name = studentName.trim();
  const when = date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Word Sorter${name ? ` - ${escapeHtml(name)}` : ''}</title>
<style>
  body { font-family: Arial, Helvetica, sans-serif; color: #0f172a; margin: 24px; }
  h1 { font-size: 24px; margin: 0 0 4px; }
  .meta { color: #334155; margin: 0 0 24px; font-size: 14px; }
  .lists { display: grid; grid-template-columns: 1fr 1fr; gap: 24px; }
  section { border: 1px solid #94a3b8; border-radius: 8px; padding: 12px 16px; break-inside: avoid; }
  h2 { font-size: 18px; margin: 0 0 8px; border-bottom: 1px solid #cbd5e1; padding-bottom: 6px; }
  .count { color: #64748b; font-weight: normal; font-size: 14px; }
  ol { margin: 0; padding-left: 24px; font-size: 16px; line-height: 1.7; }
  .empty { color: #64748b; list-style: none; margin-left: -24px; }
  @media print { body { margin: 0; } }
</style>
</head>
<body>
<h1>Word Sorter</h1>
<p class="meta">Student: ${name ? escapeHtml(name) : '______________________'} &middot; Date: ${escapeHtml(when)}</p>
<div class="lists">${list(state.titles[0], state.lists[0])}${list(state.titles[1], state.lists[1])}</div>
</body>
</html>`;
}

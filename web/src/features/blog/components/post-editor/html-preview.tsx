/**
 * Renders HTML typed in the editor. The text is the admin's own and not yet sanitised (the server sanitises on
 * save), so it goes into an iframe sandboxed with no permissions: no scripts, no same-origin access, no forms.
 */
export function HtmlPreview({
  title,
  html,
  heading,
  className,
}: {
  title: string;
  html: string;
  heading?: string;
  className?: string;
}) {
  const escapedHeading = heading
    ? heading.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
    : '';
  const doc =
    '<!doctype html><html><head><meta charset="utf-8"><base target="_blank">' +
    '<style>body{font-family:system-ui,sans-serif;line-height:1.6;color:#1e293b;margin:16px;}img,iframe{max-width:100%;}' +
    'pre{background:#0f172a;color:#f1f5f9;padding:12px;border-radius:8px;overflow:auto;}table{border-collapse:collapse;}td,th{border:1px solid #cbd5e1;padding:4px 8px;}</style>' +
    `</head><body>${escapedHeading ? `<h1>${escapedHeading}</h1>` : ''}${html}</body></html>`;
  return (
    <iframe
      title={title}
      sandbox=""
      srcDoc={doc}
      className={className ?? 'h-96 w-full rounded-lg border border-slate-200 bg-white'}
    />
  );
}

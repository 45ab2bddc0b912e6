import { useState } from 'react';
import { Button } from '@/components/ui';
import { findMatches } from './html-tools';

/** Ctrl+F inside the HTML source: Enter / Shift+Enter step through the matches, Escape closes. */
export function FindBar({
  text,
  onSelect,
  onClose,
}: {
  text: string;
  onSelect: (start: number, end: number) => void;
  onClose: () => void;
}) {
  const [term, setTerm] = useState('');
  const [index, setIndex] = useState(0);
  const matches = findMatches(text, term);
  const current = matches.length ? Math.min(index, matches.length - 1) : -1;

  const go = (step: number) => {
    if (!matches.length) return;
    const next = (current + step + matches.length) % matches.length;
    setIndex(next);
    onSelect(matches[next]!, matches[next]! + term.length);
  };

  return (
    <div
      role="search"
      aria-label="Find in HTML"
      className="flex flex-wrap items-center gap-2 rounded-lg border border-slate-200 bg-slate-50 p-2"
    >
      <label className="flex items-center gap-2 text-sm">
        <span className="font-medium text-slate-700">Find</span>
        <input
          autoFocus
          type="search"
          value={term}
          onChange={(e) => {
            setTerm(e.target.value);
            setIndex(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              go(e.shiftKey ? -1 : 1);
            } else if (e.key === 'Escape') {
              e.preventDefault();
              onClose();
            }
          }}
          className="rounded-md border border-slate-300 px-2 py-1 text-sm"
        />
      </label>
      <span className="text-xs text-slate-600" aria-live="polite">
        {term ? (matches.length ? `${current + 1} of ${matches.length}` : 'No matches') : ''}
      </span>
      <Button size="sm" variant="outline" onClick={() => go(-1)} disabled={!matches.length}>
        Previous
      </Button>
      <Button size="sm" variant="outline" onClick={() => go(1)} disabled={!matches.length}>
        Next
      </Button>
      <Button size="sm" variant="ghost" onClick={onClose}>
        Close
      </Button>
    </div>
  );
}

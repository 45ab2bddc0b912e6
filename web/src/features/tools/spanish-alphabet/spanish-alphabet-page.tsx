import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui';
import { PageContainer, PageHeader } from '@/components/layout';
import { cn } from '@/lib/cn';
import { AlphabetPlayer, browserPlayerDeps } from './alphabet-player';
import { SPANISH_LETTERS } from './spanish-letters';

export default function SpanishAlphabetPage() {
  const [highlighted, setHighlighted] = useState<string | null>(null);
  const [playingAll, setPlayingAll] = useState(false);
  const player = useRef<AlphabetPlayer | null>(null);

  useEffect(() => {
    const instance = new AlphabetPlayer(SPANISH_LETTERS, browserPlayerDeps(setHighlighted, setPlayingAll));
    player.current = instance;
    return () => instance.stop();
  }, []);

  const current = SPANISH_LETTERS.find((l) => l.letter === highlighted);

  return (
    <PageContainer>
      <PageHeader
        title="Spanish Alphabet"
        description="Press a letter to hear its name, or play the whole alphabet in order."
        actions={
          <>
            <Button onClick={() => player.current?.playAll()} disabled={playingAll}>
              <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-4">
                <path d="M6.3 2.8A1.5 1.5 0 0 0 4 4.1v11.8a1.5 1.5 0 0 0 2.3 1.3l9.4-5.9a1.5 1.5 0 0 0 0-2.6L6.3 2.8Z" />
              </svg>
              Play All Letters
            </Button>
            <Button variant="outline" onClick={() => player.current?.stop()}>
              <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-4">
                <rect x="5" y="5" width="10" height="10" rx="1.5" />
              </svg>
              Stop
            </Button>
          </>
        }
      />
      <p role="status" aria-live="polite" className="sr-only">
        {current ? `Playing ${current.letter}, ${current.name}` : ''}
      </p>
      <ul className="grid grid-cols-2 gap-3 min-[480px]:grid-cols-3 md:grid-cols-5 xl:grid-cols-6">
        {SPANISH_LETTERS.map((letter) => {
          const active = letter.letter === highlighted;
          return (
            <li key={letter.letter} className="flex">
              <button
                type="button"
                onClick={() => player.current?.playOne(letter)}
                aria-current={active ? 'true' : undefined}
                className={cn(
                  'flex w-full flex-col items-center rounded-2xl border bg-white p-4 text-center shadow-sm transition',
                  'hover:-translate-y-0.5 hover:shadow-md focus-visible:outline-2 focus-visible:outline-brand-700',
                  active
                    ? 'scale-105 border-brand-600 bg-brand-50 ring-4 ring-brand-500/30'
                    : 'border-slate-200',
                )}
              >
                {/* The accessible name starts with the visible text, so voice control users can say what they see. */}
                <span className="sr-only">Play </span>
                <span className={cn('text-4xl font-extrabold', active ? 'text-brand-700' : 'text-slate-900')}>
                  {letter.letter}
                </span>
                <span className="sr-only">: </span>
                <span className="mt-1 text-base font-semibold text-brand-800">{letter.name}</span>
                <span className="sr-only">. </span>
                <span className="mt-1 text-xs text-slate-600">{letter.hint}</span>
              </button>
            </li>
          );
        })}
      </ul>
    </PageContainer>
  );
}

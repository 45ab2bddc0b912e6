import { cn } from '@/lib/cn';
import { cardRows, type BingoCard } from './bingo-card';
import { BINGO_LETTERS, FREE_LABEL } from './bingo.constants';

/** A card as an accessible table: B-I-N-G-O column headers on 5x5 cards, FREE marked in the centre. */
export function BingoCardView({
  card,
  caption,
  headings,
}: {
  card: BingoCard;
  caption: string;
  headings: boolean;
}) {
  return (
    <table className="w-full table-fixed border-collapse overflow-hidden rounded-xl bg-white text-center shadow-sm ring-1 ring-slate-300">
      <caption className="mb-2 text-left text-sm font-semibold text-slate-700">{caption}</caption>
      {headings ? (
        <thead>
          <tr>
            {BINGO_LETTERS.map((letter) => (
              <th
                key={letter}
                scope="col"
                className="bg-brand-700 py-2 text-lg font-extrabold text-white sm:text-2xl"
              >
                {letter}
              </th>
            ))}
          </tr>
        </thead>
      ) : null}
      <tbody>
        {cardRows(card).map((row, r) => (
          <tr key={r}>
            {row.map((cell, c) => (
              <td
                key={c}
                className={cn(
                  'aspect-square border border-slate-300 p-1 align-middle font-semibold break-words hyphens-auto',
                  card.size === 5 ? 'text-xs sm:text-base' : 'text-sm sm:text-lg',
                  cell.free ? 'bg-brand-50 font-extrabold tracking-wide text-brand-800' : 'text-slate-900',
                )}
              >
                {cell.free ? FREE_LABEL : cell.value}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

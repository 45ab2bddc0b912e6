import type { ItemAnalysis } from '@district/contracts/assessment';
import { HARD_FACILITY_BELOW } from './grades.constants';

export type ItemFlag = 'hard' | 'confusing';

type Item = ItemAnalysis['questions'][number];

/**
 * Hard: fewer than 30 % got it right. Confusing: a wrong option was picked more often than the right one, or the
 * weaker results got it right more often than the stronger ones (negative discrimination).
 */
export function itemFlags(item: Item): ItemFlag[] {
  const flags: ItemFlag[] = [];
  if (item.facility !== null && item.facility < HARD_FACILITY_BELOW) flags.push('hard');
  const right = item.optionCounts[item.correctAnswer] ?? 0;
  const distractorWins = item.optionCounts.some((count, i) => i !== item.correctAnswer && count > right);
  if (distractorWins || (item.discrimination !== null && item.discrimination < 0)) flags.push('confusing');
  return flags;
}

export const percent = (share: number | null): string =>
  share === null ? '—' : `${Math.round(share * 100)}%`;

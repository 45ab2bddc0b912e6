import { EvolutionMessages, type CodeStep } from './evolution-samples';

export type PlaybackStatus = 'stopped' | 'playing' | 'paused';

export interface EvolutionState {
  steps: CodeStep[];
  index: number;
  status: PlaybackStatus;
  customCount: number;
}

export type EvolutionAction =
  | { type: 'play' }
  | { type: 'pause' }
  | { type: 'reset' }
  | { type: 'tick' }
  | { type: 'select'; index: number }
  | { type: 'addCustom'; code: string };

export function initialEvolutionState(steps: readonly CodeStep[]): EvolutionState {
  return { steps: [...steps], index: 0, status: 'stopped', customCount: 0 };
}

const isLast = (state: EvolutionState, index = state.index) => index >= state.steps.length - 1;

/** Spec section 4: stopped, playing, paused; one state per tick; stops at the last; Reset returns to the first. */
export function evolutionReducer(state: EvolutionState, action: EvolutionAction): EvolutionState {
  switch (action.type) {
    case 'play':
      if (state.status === 'playing') return state;
      // Playing from the end starts over, otherwise the button would do nothing.
      return { ...state, status: 'playing', index: isLast(state) ? 0 : state.index };
    case 'pause':
      return state.status === 'playing' ? { ...state, status: 'paused' } : state;
    case 'reset':
      return { ...state, index: 0, status: 'stopped' };
    case 'tick': {
      if (state.status !== 'playing') return state;
      const index = Math.min(state.index + 1, state.steps.length - 1);
      return { ...state, index, status: isLast(state, index) ? 'stopped' : 'playing' };
    }
    case 'select': {
      if (action.index < 0 || action.index >= state.steps.length) return state;
      return { ...state, index: action.index, status: state.status === 'playing' ? 'paused' : state.status };
    }
    case 'addCustom': {
      if (!action.code.trim()) return state;
      const customCount = state.customCount + 1;
      const step: CodeStep = {
        title: EvolutionMessages.customTitle(customCount),
        description: EvolutionMessages.customDescription,
        code: action.code.replace(/\s+$/, ''),
      };
      const steps = [...state.steps, step];
      return {
        ...state,
        steps,
        customCount,
        index: steps.length - 1,
        status: state.status === 'playing' ? 'paused' : state.status,
      };
    }
  }
}

/**
 * Which lines of `next` are new compared with `previous` (a longest-common-subsequence diff), so each step can
 * highlight what it added.
 */
export function addedLines(previous: string, next: string): Set<number> {
  const a = previous.split('\n');
  const b = next.split('\n');
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const added = new Set<number>();
  let i = 0;
  let j = 0;
  while (j < b.length) {
    if (i < a.length && a[i] === b[j]) {
      i++;
      j++;
    } else if (i < a.length && lcs[i + 1][j] >= lcs[i][j + 1]) {
      i++;
    } else {
      added.add(j);
      j++;
    }
  }
  return added;
}

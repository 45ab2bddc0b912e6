import { DEFAULT_LIST_TITLES } from './word-sorter.constants';

export interface SorterWord {
  /** Timestamp-based (spec section 3), with a counter so two words added in the same millisecond differ. */
  id: string;
  text: string;
}

export type ListIndex = 0 | 1;

export interface SorterState {
  lists: [SorterWord[], SorterWord[]];
  titles: [string, string];
}

export type SorterAction =
  | { type: 'add'; id: string; text: string }
  | { type: 'move'; id: string; to: ListIndex; index?: number }
  | { type: 'remove'; id: string }
  | { type: 'rename'; list: ListIndex; title: string }
  | { type: 'clear' };

export const initialSorterState: SorterState = { lists: [[], []], titles: [...DEFAULT_LIST_TITLES] };

let counter = 0;
export function newWordId(now: number = Date.now()): string {
  counter = (counter + 1) % 1_000_000;
  return `${now}-${counter}`;
}

export function listOf(state: SorterState, id: string): ListIndex | null {
  if (state.lists[0].some((w) => w.id === id)) return 0;
  if (state.lists[1].some((w) => w.id === id)) return 1;
  return null;
}

export function isEmpty(state: SorterState): boolean {
  return state.lists[0].length === 0 && state.lists[1].length === 0;
}

export function sorterReducer(state: SorterState, action: SorterAction): SorterState {
  switch (action.type) {
    case 'add': {
      const text = action.text.trim();
      // Spec: new words always go to list 1.
      if (!text) return state;
      return { ...state, lists: [[...state.lists[0], { id: action.id, text }], state.lists[1]] };
    }
    case 'move': {
      const from = listOf(state, action.id);
      if (from === null) return state;
      const word = state.lists[from].find((w) => w.id === action.id)!;
      const lists: [SorterWord[], SorterWord[]] = [
        state.lists[0].filter((w) => w.id !== action.id),
        state.lists[1].filter((w) => w.id !== action.id),
      ];
      const target = lists[action.to];
      const at =
        action.index === undefined ? target.length : Math.max(0, Math.min(action.index, target.length));
      target.splice(at, 0, word);
      return { ...state, lists };
    }
    case 'remove':
      return {
        ...state,
        lists: [
          state.lists[0].filter((w) => w.id !== action.id),
          state.lists[1].filter((w) => w.id !== action.id),
        ],
      };
    case 'rename': {
      // A blank title would leave the list unnamed on the printout, so it keeps its old one.
      const title = action.title.trim();
      if (!title) return state;
      const titles: [string, string] = [...state.titles];
      titles[action.list] = title;
      return { ...state, titles };
    }
    case 'clear':
      return { ...state, lists: [[], []] };
  }
}

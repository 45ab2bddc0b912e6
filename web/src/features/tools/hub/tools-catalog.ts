import type { User } from '@district/contracts/identity';

export type ToolAudience = 'everyone' | 'staff';

export interface ToolInfo {
  id: string;
  title: string;
  description: string;
  route: string;
  /** 'everyone' tools are the five students see; 'staff' tools only teachers and admins see (spec section 2). */
  audience: ToolAudience;
  /** Route needs no sign-in (spec section 2, route access). */
  public: boolean;
  /** SVG path data (24×24, stroked): icons that look the same on every device, unlike emoji. */
  icon: string;
}

/** The twelve tools of the hub, in the spec's route order. */
export const TOOLS: readonly ToolInfo[] = [
  {
    id: 'audio-quizzes',
    title: 'Audio Quizzes',
    description: 'Listen to a recording and choose the right answer; results are saved to your profile.',
    route: '/audio-quizzes',
    audience: 'everyone',
    public: false,
    icon: 'M3 18v-6a9 9 0 0 1 18 0v6M21 19a2 2 0 0 1-2 2h-1a2 2 0 0 1-2-2v-3a2 2 0 0 1 2-2h3zM3 19a2 2 0 0 0 2 2h1a2 2 0 0 0 2-2v-3a2 2 0 0 0-2-2H3z',
  },
  {
    id: 'text-quizzes',
    title: 'Text Quizzes',
    description: 'Multiple-choice reading quizzes with instant scoring and a question review.',
    route: '/text-quizzes',
    audience: 'everyone',
    public: false,
    icon: 'M9 11l3 3L22 4M21 12v7a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h11',
  },
  {
    id: 'bingo-generator',
    title: 'Bingo Generator',
    description: 'Printable number bingo cards from any range, with or without a FREE centre.',
    route: '/bingo-generator',
    audience: 'staff',
    public: true,
    icon: 'M3 3h18v18H3zM3 9h18M3 15h18M9 3v18M15 3v18',
  },
  {
    id: 'word-bingo',
    title: 'Bingo',
    description: 'Word bingo cards from your vocabulary list, in 3x3, 4x4 or 5x5, as a PDF.',
    route: '/word-bingo',
    audience: 'staff',
    public: true,
    icon: 'M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20zM12 18a6 6 0 1 0 0-12 6 6 0 0 0 0 12zM12 14a2 2 0 1 0 0-4 2 2 0 0 0 0 4z',
  },
  {
    id: 'spanish-alphabet',
    title: 'Spanish Alphabet',
    description: 'Hear all 30 letters of the Spanish alphabet, one at a time or all in order.',
    route: '/spanish-alphabet',
    audience: 'everyone',
    public: true,
    icon: 'M4 7V4h16v3M9 20h6M12 4v16',
  },
  {
    id: 'code-evolution',
    title: 'Code Evolution',
    description: 'Watch a program grow step by step, or step through your own code.',
    route: '/code-evolution',
    audience: 'staff',
    public: true,
    icon: 'M16 18l6-6-6-6M8 6l-6 6 6 6',
  },
  {
    id: 'word-sorter',
    title: 'Word Sorter',
    description: 'Sort words into two named lists by dragging them, then print the result.',
    route: '/word-sorter',
    audience: 'staff',
    public: true,
    icon: 'M12 2 2 7l10 5 10-5-10-5zM2 17l10 5 10-5M2 12l10 5 10-5',
  },
  {
    id: 'listen-to-type',
    title: 'Listen to Type',
    description: 'A live chat room for the class to practise listening and typing together.',
    route: '/listen-to-type',
    audience: 'staff',
    public: false,
    icon: 'M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z',
  },
  {
    id: 'crossword-generator',
    title: 'Crossword Generator',
    description: 'Turn clues and answers into a printable crossword with an answer key.',
    route: '/crossword-generator',
    audience: 'staff',
    public: true,
    icon: 'M3 3h7v7H3zM14 3h7v7h-7zM14 14h7v7h-7zM3 14h7v7H3z',
  },
  {
    id: 'audio-lists',
    title: 'Audio Lists',
    description: 'Collections of audio files to listen to and practise with.',
    route: '/audio-lists',
    audience: 'everyone',
    public: false,
    icon: 'M9 18V5l12-2v13M9 18a3 3 0 1 1-6 0 3 3 0 0 1 6 0zM21 16a3 3 0 1 1-6 0 3 3 0 0 1 6 0z',
  },
  {
    id: 'lesson-plans',
    title: 'Lesson Plans',
    description: 'Plan lessons in five phases, from the warm-up to the wrap-up.',
    route: '/lesson-plans',
    audience: 'staff',
    public: false,
    icon: 'M2 3h6a4 4 0 0 1 4 4v14a3 3 0 0 0-3-3H2zM22 3h-6a4 4 0 0 0-4 4v14a3 3 0 0 1 3-3h7z',
  },
  {
    id: 'google-slides',
    title: 'Google Slides',
    description: 'A library of class presentations, previewed right on the page.',
    route: '/google-slides',
    audience: 'everyone',
    public: false,
    icon: 'M2 3h20v14H2zM8 21h8M12 17v4',
  },
];

export type HubViewer = 'visitor' | 'student' | 'staff';

/** Teachers and admins are staff; any other signed-in user is a student. */
export function hubViewer(user: User | null): HubViewer {
  if (!user) return 'visitor';
  return user.isAdmin || user.role === 'teacher' ? 'staff' : 'student';
}

/**
 * Staff see all twelve tools, students the five meant for them. A visitor is told to log in and sees the tools
 * whose routes need no sign-in, so the links on the page all work for them.
 */
export function visibleTools(user: User | null): ToolInfo[] {
  switch (hubViewer(user)) {
    case 'staff':
      return [...TOOLS];
    case 'student':
      return TOOLS.filter((t) => t.audience === 'everyone');
    case 'visitor':
      return TOOLS.filter((t) => t.public);
  }
}

export const HubMessages = {
  title: 'Educational Tools',
  description: 'Interactive tools for teaching and learning Spanish in the classroom.',
  loginPrompt: 'Please log in to access all educational tools',
  studentViewTitle: 'Student View',
  studentViewBody: 'You are seeing the tools available to students.',
  launch: 'Launch Tool',
} as const;

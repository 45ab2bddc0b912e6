/** Word sorter strings and timings from the spec (classroom-tools.md sections 3, 4, 8, 9). */
export const DEFAULT_LIST_TITLES = ['List 1', 'List 2'] as const;
export const CLEAR_DELAY_MS = 2000;
export const CLEAR_NOTICE_MS = 4000;
export const PRINT_DELAY_MS = 500;

export const SorterMessages = {
  title: 'Word Sorter',
  description: 'Add words, then drag them into the list where they belong.',
  studentName: 'Student Name',
  addWordLabel: 'New word',
  addWord: 'Add Word',
  exportPdf: 'Export to PDF',
  clearAll: 'Clear All Lists',
  backToTools: 'Back to Tools',
  clearWarning: 'This will remove all words from both lists. This action cannot be undone.',
  cleared: 'All lists have been cleared.',
  printOpenedTitle: 'Print Dialog Opened',
  printOpened: "Use your browser's print dialog to save as PDF or print the document.",
  printErrorTitle: 'Error',
  printError: (message: string | undefined) => `Error opening print dialog: ${message || 'Unknown error'}`,
  popupBlocked: 'The print window was blocked. Allow pop-ups for this site and try again.',
  emptyList: 'Drop words here',
} as const;

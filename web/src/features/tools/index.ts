import { lazy } from 'react';

// Each page is its own chunk; the PDF builders (and jspdf) are split off again and load only on export.
/** The hub's code, fetched at start when the hub is the opened page (app/router.tsx preloadRouteCode). */
export const loadToolsHubPage = () => import('./hub/tools-hub-page');
export const ToolsHubPage = lazy(loadToolsHubPage);
export const NumberBingoPage = lazy(() => import('./bingo/number-bingo-page'));
export const WordBingoPage = lazy(() => import('./bingo/word-bingo-page'));
export const SpanishAlphabetPage = lazy(() => import('./spanish-alphabet/spanish-alphabet-page'));
export const WordSorterPage = lazy(() => import('./word-sorter/word-sorter-page'));
export const CodeEvolutionPage = lazy(() => import('./code-evolution/code-evolution-page'));
export const CrosswordPage = lazy(() => import('./crossword/crossword-page'));

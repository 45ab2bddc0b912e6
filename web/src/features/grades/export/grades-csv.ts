import type { Grade } from '@district/contracts/assessment';
import { downloadBytes } from '@/lib/download-file';
import { completedAt } from '../grade-stats';
import { toCsv, type CsvCell } from './csv';

export const GRADES_CSV_HEADER = [
  'Student Name',
  'Quiz Title',
  'Score (%)',
  'Correct Answers',
  'Total Questions',
  'Passed',
  'Date Completed',
] as const;

/**
 * The dashboard's rows as CSV records. Correct and total go in two columns (a spreadsheet would read "2/3" as a
 * date) and the date as ISO 8601 UTC, which every spreadsheet sorts and converts.
 */
export function gradesCsvRows(grades: readonly Grade[]): CsvCell[][] {
  return [
    [...GRADES_CSV_HEADER],
    ...grades.map((g) => [
      g.userName,
      g.quizTitle,
      g.score,
      g.correctAnswers,
      g.totalQuestions,
      g.passed ? 'Yes' : 'No',
      completedAt(g),
    ]),
  ];
}

export const gradesCsv = (grades: readonly Grade[]) => toCsv(gradesCsvRows(grades));

/** `quiz-grades-2025-03-06.csv`, with the quiz's title when one quiz is chosen. */
export function gradesCsvFileName(base: string, quizTitle: string | null, today: Date = new Date()): string {
  const slug = quizTitle
    ? `-${quizTitle
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 60)}`
    : '';
  return `${base}${slug === '-' ? '' : slug}-${today.toISOString().slice(0, 10)}.csv`;
}

export function downloadGradesCsv(grades: readonly Grade[], fileName: string): void {
  downloadBytes(new TextEncoder().encode(gradesCsv(grades)), fileName, 'text/csv;charset=utf-8');
}

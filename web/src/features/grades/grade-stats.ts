import { PASS_MARK, type Grade } from '@district/contracts/assessment';

/** When the result was completed: createdAt, with completedAt as the spec's fallback. */
export const completedAt = (g: Pick<Grade, 'createdAt' | 'completedAt'>): string =>
  g.createdAt || g.completedAt;

export interface GradeSummary {
  totalAttempts: number;
  /** Whole percent (spec §9), 0 without results. */
  averageScore: number;
  passed: number;
  passRate: number;
}

/** The dashboard's summary cards (spec §2, §9): pass at 70 %, average and pass rate rounded to whole percent. */
export function summarize(grades: readonly Pick<Grade, 'score'>[]): GradeSummary {
  const total = grades.length;
  if (total === 0) return { totalAttempts: 0, averageScore: 0, passed: 0, passRate: 0 };
  const passed = grades.filter((g) => g.score >= PASS_MARK).length;
  const sum = grades.reduce((acc, g) => acc + g.score, 0);
  return {
    totalAttempts: total,
    averageScore: Math.round(sum / total),
    passed,
    passRate: Math.round((passed / total) * 100),
  };
}

/** The quizzes that have results, for 'Filter by Quiz' (a deleted quiz keeps its results, so they come from the grades). */
export function quizzesOf(grades: readonly Grade[]): { id: string; title: string }[] {
  const seen = new Map<string, string>();
  for (const g of grades) if (!seen.has(g.quizId)) seen.set(g.quizId, g.quizTitle);
  return [...seen]
    .map(([id, title]) => ({ id, title }))
    .sort((a, b) => a.title.localeCompare(b.title) || a.id.localeCompare(b.id));
}

/** The students with results among these grades, by name. */
export function studentsOf(grades: readonly Grade[]): { id: string; name: string }[] {
  const seen = new Map<string, string>();
  for (const g of grades) if (!seen.has(g.userId)) seen.set(g.userId, g.userName);
  return [...seen]
    .map(([id, name]) => ({ id, name }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

const dateFmt = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
const timeFmt = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });

export function formatDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : dateFmt.format(d);
}

export function formatTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : timeFmt.format(d);
}

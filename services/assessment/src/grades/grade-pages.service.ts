import { Inject, Injectable } from '@nestjs/common';
import type { Grade, GradeSummary, ItemAnalysis, QuizKind } from '@district/contracts';
import { RosterScope, type AuthUser } from '@district/nest-common';
import { GradeNotFoundError, QuizNotFoundError } from '../assessment.errors';
import { isStaff } from '../quizzes/quiz-views';
import { QuizzesRepository } from '../quizzes/quizzes.repository';
import { GradePagesRepository, type GradeFilter, type GradeKey } from './grade-pages.repository';
import { GradesService } from './grades.service';
import { analyseItems } from './item-analysis';

/** The filters a caller may ask for (all optional; they combine). */
export interface GradeAsk {
  userId?: string;
  quizId?: string;
  classId?: string;
}

export interface GradesPage {
  grades: Grade[];
  total: number;
  next: GradeKey | null;
}

const EMPTY_SUMMARY: GradeSummary = {
  totalAttempts: 0,
  averageScore: 0,
  passed: 0,
  passRate: 0,
  quizzes: [],
};
const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * Results as the dashboards read them, scoped by the roster (ADR 0042): a teacher their classes' students', a school
 * administrator their schools', a district administrator everyone's; an installation without classes keeps the
 * spec's rights (staff: everyone). A student reads their own, whatever they ask for.
 */
@Injectable()
export class GradePagesService {
  constructor(
    @Inject(GradePagesRepository) private readonly pages: GradePagesRepository,
    @Inject(GradesService) private readonly grades: GradesService,
    @Inject(QuizzesRepository) private readonly quizzes: QuizzesRepository,
    @Inject(RosterScope) private readonly roster: RosterScope,
  ) {}

  /** Where `viewer` looks when asking `ask`; null when it is nowhere (a class they do not manage). */
  async filterFor(kind: QuizKind, viewer: AuthUser, ask: GradeAsk): Promise<GradeFilter | null> {
    const quizId = ask.quizId?.toLowerCase();
    if (!isStaff(viewer))
      return {
        kind,
        scope: { all: true, classIds: [], schoolIds: [] },
        userId: viewer.id.toLowerCase(),
        quizId,
      };
    const classId = ask.classId?.toLowerCase();
    if (classId && !(await this.roster.managesClass(viewer, classId))) return null;
    const scope = await this.roster.scopeOf(viewer);
    return { kind, scope, userId: ask.userId?.toLowerCase(), quizId, classId };
  }

  async list(
    kind: QuizKind,
    viewer: AuthUser,
    ask: GradeAsk,
    limit: number,
    after?: GradeKey,
  ): Promise<GradesPage> {
    const filter = await this.filterFor(kind, viewer, ask);
    if (!filter) return { grades: [], total: 0, next: null };
    const page = await this.pages.page(filter, limit, after);
    return { grades: await this.grades.views(viewer, page.grades), total: page.total, next: page.next };
  }

  /** The summary cards over the whole filter (not one page), computed in SQL. */
  async summary(kind: QuizKind, viewer: AuthUser, ask: GradeAsk): Promise<GradeSummary> {
    const filter = await this.filterFor(kind, viewer, ask);
    if (!filter) return EMPTY_SUMMARY;
    const tallies = await this.pages.tally(filter);
    const totalAttempts = tallies.reduce((n, t) => n + t.attempts, 0);
    if (totalAttempts === 0) return EMPTY_SUMMARY;
    const passed = tallies.reduce((n, t) => n + t.passed, 0);
    const scoreSum = tallies.reduce((n, t) => n + t.scoreSum, 0);
    return {
      totalAttempts,
      averageScore: round1(scoreSum / totalAttempts),
      passed,
      passRate: round1((passed / totalAttempts) * 100),
      quizzes: tallies.map(({ id, title }) => ({ id, title })),
    };
  }

  /** Item analysis of a quiz over the caller's scope (and class), from its results on the current version. */
  async analyse(kind: QuizKind, quizId: string, viewer: AuthUser, classId?: string): Promise<ItemAnalysis> {
    const quiz = await this.quizzes.find(kind, quizId);
    if (!quiz) throw new QuizNotFoundError();
    const filter = await this.filterFor(kind, viewer, { quizId, classId });
    const { current, older } = filter
      ? await this.pages.forAnalysis(filter, quiz.version)
      : { current: [], older: 0 };
    return {
      quizId,
      version: quiz.version,
      results: current.length,
      olderResults: older,
      questions: analyseItems(quiz.questions, current),
    };
  }

  /** A result the caller addresses by id: 404 unless its person is in their scope (ADR 0042). */
  async assertInScope(kind: QuizKind, id: string, viewer: AuthUser): Promise<void> {
    const scope = await this.roster.scopeOf(viewer);
    if (!(await this.pages.inScope(kind, id, scope))) throw new GradeNotFoundError();
  }
}

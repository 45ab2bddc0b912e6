import { CreateAssessment1733300000000 } from './1733300000000-create-assessment.migration';
import { AttemptStateFunction1733400000000 } from './1733400000000-attempt-state-function.migration';
import { SubmitGradeFunction1733500000000 } from './1733500000000-submit-grade-function.migration';
import { QuizOwnerAndReveal1733600000000 } from './1733600000000-quiz-owner-and-reveal.migration';
import { SubmitGradeEnqueue1733700000000 } from './1733700000000-submit-grade-enqueue.migration';
import { QuizClassesAndGradePages1733810000000 } from './1733810000000-quiz-classes-and-grade-pages.migration';
import { GradeTallies1733900000000 } from './1733900000000-grade-tallies.migration';

/** Every migration of assessment, in order (the platform adds the outbox and inbox tables before them). */
export const assessmentMigrations = [
  CreateAssessment1733300000000,
  AttemptStateFunction1733400000000,
  SubmitGradeFunction1733500000000,
  QuizOwnerAndReveal1733600000000,
  SubmitGradeEnqueue1733700000000,
  QuizClassesAndGradePages1733810000000,
  GradeTallies1733900000000,
];

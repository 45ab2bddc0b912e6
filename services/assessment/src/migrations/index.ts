import { CreateAssessment1733300000000 } from './1733300000000-create-assessment.migration';

/** Every migration of assessment, in order (the platform adds the outbox and inbox tables before them). */
export const assessmentMigrations = [CreateAssessment1733300000000];

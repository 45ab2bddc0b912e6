import { serviceRoute, type ServiceDefinition } from '@district/nest-common';
import { ASSESSMENT_SERVICE_NAME, AssessmentModule, type AssessmentModuleOptions } from './assessment.module';
import { assessmentWarmUp } from './grades/warm-up';
import { ASSESSMENT_PEOPLE_DATA } from './users/people-data.holder';

export { AssessmentModule, ASSESSMENT_SERVICE_NAME, type AssessmentModuleOptions } from './assessment.module';

/** assessment in the launcher's target registry. Tests pass a throwaway schema. */
export function defineAssessmentService(options: AssessmentModuleOptions = {}): ServiceDefinition {
  return {
    name: ASSESSMENT_SERVICE_NAME,
    // Its tokens are identity's.
    dependsOn: ['identity'],
    defaultPort: 4106,
    routes: [
      serviceRoute('/api/audio-quizzes', 'tree', '/api/audio-quizzes/2b2b/attempts'),
      serviceRoute('/api/text-quizzes', 'tree', '/api/text-quizzes'),
      serviceRoute('/api/quiz-grades', 'tree', '/api/quiz-grades/4'),
      serviceRoute('/api/text-quiz-grades', 'tree', '/api/text-quiz-grades'),
      // A class's gradebook export: identity owns the rest of /api/classes (a pattern route is tried first).
      serviceRoute(
        '/api/classes/*/results.zip',
        'pattern',
        '/api/classes/8a0c2b4e-1f3d-4c5b-9a6e-7d8f9a0b1c2d/results.zip',
      ),
    ],
    // It holds people's data (ADR 0036): the platform audits and answers for it, identity asks it.
    peopleData: ASSESSMENT_PEOPLE_DATA,
    rootModule: (runtime) => AssessmentModule.forRoot(runtime, options),
    // A replica started during a burst (the autoscaler adding one) takes its share with its submission path warm.
    warmUp: assessmentWarmUp,
  };
}

export const assessmentService: ServiceDefinition = defineAssessmentService();

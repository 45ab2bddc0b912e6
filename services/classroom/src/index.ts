import { serviceRoute, type ServiceDefinition } from '@district/nest-common';
import { CLASSROOM_SERVICE_NAME, ClassroomModule, type ClassroomModuleOptions } from './classroom.module';
import { CLASSROOM_PEOPLE_DATA } from './users/people-data.holder';

export { ClassroomModule, CLASSROOM_SERVICE_NAME, type ClassroomModuleOptions } from './classroom.module';

/** classroom in the launcher's target registry. Tests pass a throwaway schema. */
export function defineClassroomService(options: ClassroomModuleOptions = {}): ServiceDefinition {
  return {
    name: CLASSROOM_SERVICE_NAME,
    // Its tokens are identity's.
    dependsOn: ['identity'],
    defaultPort: 4107,
    routes: [
      serviceRoute('/api/audio-lists', 'tree', '/api/audio-lists/4'),
      serviceRoute('/api/audio-proxy', 'exact', '/api/audio-proxy'),
      serviceRoute('/api/lesson-plans', 'tree', '/api/lesson-plans/4'),
      serviceRoute('/api/google-slides', 'tree', '/api/google-slides/4'),
    ],
    // It holds people's data (ADR 0036): the platform audits and answers for it, identity asks it.
    peopleData: CLASSROOM_PEOPLE_DATA,
    rootModule: (runtime) => ClassroomModule.forRoot(runtime, options),
  };
}

export const classroomService: ServiceDefinition = defineClassroomService();

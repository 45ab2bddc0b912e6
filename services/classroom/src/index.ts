import { serviceRoute, type ServiceDefinition } from '@district/nest-common';
import { CLASSROOM_SERVICE_NAME, ClassroomModule, type ClassroomModuleOptions } from './classroom.module';

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
    rootModule: (runtime) => ClassroomModule.forRoot(runtime, options),
  };
}

export const classroomService: ServiceDefinition = defineClassroomService();

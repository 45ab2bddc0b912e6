import { CreateClassroom1733400000000 } from './1733400000000-create-classroom.migration';

/** Every migration of classroom, in order (the platform adds the outbox and inbox tables before them). */
export const classroomMigrations = [CreateClassroom1733400000000];

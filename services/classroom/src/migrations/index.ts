import { CreateClassroom1733400000000 } from './1733400000000-create-classroom.migration';
import { AddItemSchools1733800000100 } from './1733800000100-add-item-schools.migration';

/**
 * Every migration of classroom, in order (the platform adds the outbox and inbox tables, and the roster
 * projection's, before them).
 */
export const classroomMigrations = [CreateClassroom1733400000000, AddItemSchools1733800000100];

import type { z } from 'zod';
import {
  commentChangedEventSchema,
  commentDeletedEventSchema,
  postDeletedEventSchema,
  postPublishedEventSchema,
  postUnpublishedEventSchema,
} from './content/events';
import { chatroomChangedEventSchema, chatroomDeletedEventSchema } from './chat/events';
import {
  gradeDeletedEventSchema,
  gradeRecordedEventSchema,
  quizChangedEventSchema,
  quizDeletedEventSchema,
} from './assessment/events';
import {
  audioListChangedEventSchema,
  audioListDeletedEventSchema,
  googleSlideChangedEventSchema,
  googleSlideDeletedEventSchema,
  lessonPlanChangedEventSchema,
  lessonPlanDeletedEventSchema,
} from './classroom/events';
import {
  sessionEndedEventSchema,
  userChangedEventSchema,
  userDeletedEventSchema,
  usersListRequestSchema,
} from './identity/events';
import { rosterClassChangedEventSchema, rosterSchoolChangedEventSchema } from './identity/roster';
import { Subjects, type Subject } from './common/events';
import { PeopleDataSubjects } from './common/people-data';
import { auditRecordedEventSchema } from './common/audit';
import { userExportRequestSchema } from './common/user-export';

/**
 * The payload schema of every subject: an event's data, or a request's. Handlers registered with
 * `@EventPattern`/`@MessagePattern` receive the payload parsed by it (a payload that fails it never reaches
 * them), so a new subject needs its schema here — the `satisfies` makes a missing one a type error.
 */
export const SubjectSchemas = {
  [Subjects.identityUserCreated]: userChangedEventSchema,
  [Subjects.identityUserUpdated]: userChangedEventSchema,
  [Subjects.identityUserDeleted]: userDeletedEventSchema,
  [Subjects.identityUsersList]: usersListRequestSchema,
  [Subjects.identitySessionEnded]: sessionEndedEventSchema,
  [Subjects.identityRosterClassChanged]: rosterClassChangedEventSchema,
  [Subjects.identityRosterSchoolChanged]: rosterSchoolChangedEventSchema,
  [Subjects.contentPostPublished]: postPublishedEventSchema,
  [Subjects.contentPostUnpublished]: postUnpublishedEventSchema,
  [Subjects.contentPostDeleted]: postDeletedEventSchema,
  [Subjects.contentCommentCreated]: commentChangedEventSchema,
  [Subjects.contentCommentUpdated]: commentChangedEventSchema,
  [Subjects.contentCommentDeleted]: commentDeletedEventSchema,
  [Subjects.chatRoomCreated]: chatroomChangedEventSchema,
  [Subjects.chatRoomUpdated]: chatroomChangedEventSchema,
  [Subjects.chatRoomDeleted]: chatroomDeletedEventSchema,
  [Subjects.assessmentQuizCreated]: quizChangedEventSchema,
  [Subjects.assessmentQuizUpdated]: quizChangedEventSchema,
  [Subjects.assessmentQuizDeleted]: quizDeletedEventSchema,
  [Subjects.assessmentGradeRecorded]: gradeRecordedEventSchema,
  [Subjects.assessmentGradeDeleted]: gradeDeletedEventSchema,
  [Subjects.classroomAudioListCreated]: audioListChangedEventSchema,
  [Subjects.classroomAudioListUpdated]: audioListChangedEventSchema,
  [Subjects.classroomAudioListDeleted]: audioListDeletedEventSchema,
  [Subjects.classroomLessonPlanCreated]: lessonPlanChangedEventSchema,
  [Subjects.classroomLessonPlanUpdated]: lessonPlanChangedEventSchema,
  [Subjects.classroomLessonPlanDeleted]: lessonPlanDeletedEventSchema,
  [Subjects.classroomSlideCreated]: googleSlideChangedEventSchema,
  [Subjects.classroomSlideUpdated]: googleSlideChangedEventSchema,
  [Subjects.classroomSlideDeleted]: googleSlideDeletedEventSchema,
} as const satisfies Record<Subject, z.ZodType>;

/** The parsed payload a handler of `S` receives, e.g. `SubjectPayload<typeof Subjects.identityUserDeleted>`. */
export type SubjectPayload<S extends Subject> = z.output<(typeof SubjectSchemas)[S]>;

/**
 * Payload schemas of subject families (ADR 0036): a subject matching one of these NATS filters (`*` one token) and
 * absent from `SubjectSchemas` takes its schema. Every service's people's-data subjects are here once, so a
 * service that declares `peopleData` needs no line in the contracts.
 */
export const SubjectPatternSchemas: Readonly<Record<string, z.ZodType>> = {
  [PeopleDataSubjects.auditRecordedAny]: auditRecordedEventSchema,
  [PeopleDataSubjects.userExportAny]: userExportRequestSchema,
};

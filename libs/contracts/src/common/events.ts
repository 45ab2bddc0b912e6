/**
 * Every bus subject is a versioned constant. Handlers and publishers import these,
 * never write the string themselves, so a rename is one edit and a typo is a type error. The people's-data
 * subjects every participating service has (`<service>.audit.recorded.v1`, `<service>.user.export.v1`) are
 * `PeopleDataSubjects` (people-data.ts): a family, not a constant per service (ADR 0036).
 */
export const Subjects = {
  identityUserCreated: 'identity.user.created.v1',
  identityUserUpdated: 'identity.user.updated.v1',
  identityUserDeleted: 'identity.user.deleted.v1',
  identityUsersList: 'identity.users.list.v1',
  identitySessionEnded: 'identity.session.ended.v1',
  identityRosterClassChanged: 'identity.roster.class.changed.v1',
  identityRosterSchoolChanged: 'identity.roster.school.changed.v1',
  contentPostPublished: 'content.post.published.v1',
  contentPostUnpublished: 'content.post.unpublished.v1',
  contentPostDeleted: 'content.post.deleted.v1',
  contentCommentCreated: 'content.comment.created.v1',
  contentCommentUpdated: 'content.comment.updated.v1',
  contentCommentDeleted: 'content.comment.deleted.v1',
  chatRoomCreated: 'chat.room.created.v1',
  chatRoomUpdated: 'chat.room.updated.v1',
  chatRoomDeleted: 'chat.room.deleted.v1',
  assessmentQuizCreated: 'assessment.quiz.created.v1',
  assessmentQuizUpdated: 'assessment.quiz.updated.v1',
  assessmentQuizDeleted: 'assessment.quiz.deleted.v1',
  assessmentGradeRecorded: 'assessment.grade.recorded.v1',
  assessmentGradeDeleted: 'assessment.grade.deleted.v1',
  classroomAudioListCreated: 'classroom.audiolist.created.v1',
  classroomAudioListUpdated: 'classroom.audiolist.updated.v1',
  classroomAudioListDeleted: 'classroom.audiolist.deleted.v1',
  classroomLessonPlanCreated: 'classroom.lessonplan.created.v1',
  classroomLessonPlanUpdated: 'classroom.lessonplan.updated.v1',
  classroomLessonPlanDeleted: 'classroom.lessonplan.deleted.v1',
  classroomSlideCreated: 'classroom.slide.created.v1',
  classroomSlideUpdated: 'classroom.slide.updated.v1',
  classroomSlideDeleted: 'classroom.slide.deleted.v1',
} as const;

export type Subject = (typeof Subjects)[keyof typeof Subjects];

/** Header names carried on HTTP requests and bus messages. */
export const Headers = {
  requestId: 'x-request-id',
  messageId: 'Nats-Msg-Id',
} as const;

/**
 * Classroom tools (spec classroom-tools §2, §3, §5, §8, §9): constants and texts shared by the classroom service and
 * the web. Length limits are not in the spec ("not shown"); these are ours, and the messages below word them.
 */
export const AUDIO_LIST_TITLE_MAX = 200;
export const AUDIO_LIST_DESCRIPTION_MAX = 2000;
export const AUDIO_LIST_FILES_MAX = 100;
export const AUDIO_FILE_NAME_MAX = 200;
export const AUDIO_FILE_URL_MAX = 2048;

export const LESSON_PLAN_TITLE_MAX = 200;
/** teacher, date, subject, topic, totalTime and each phase's timeAllotted. */
export const LESSON_PLAN_SHORT_MAX = 200;
/** standards, iCanStatements, academicVocabulary, dokQuestions, evaluation, reflection, teacherWill, studentsWill. */
export const LESSON_PLAN_TEXT_MAX = 5000;
export const LESSON_PLAN_DEFAULT_TOTAL_TIME = '90 mins';
/** The placeholder of a phase's time allotted (spec §2: "such as 15 mins"). */
export const LESSON_PLAN_TIME_PLACEHOLDER = '15 mins';
/** The checklist of instruction types of every phase but Evaluate (spec §2), in the form's order. */
export const INSTRUCTION_TYPES = [
  'Teacher Directed Instruction',
  'Guided Practice',
  'Independent Practice/Learning Tasks',
  'Collaborative learning',
  'Student Discourse',
] as const;
export type InstructionType = (typeof INSTRUCTION_TYPES)[number];
/** The five 5E phases: their keys on the plan and their headings on the form (spec §2, §3). */
export const LESSON_PLAN_PHASES = [
  { key: 'warmUp', label: 'Warm-Up/Hook (Engage)', hasInstructionTypes: true },
  { key: 'explore', label: 'Explore - Activating Strategy', hasInstructionTypes: true },
  { key: 'explain', label: 'Explain - Lecture/Builder', hasInstructionTypes: true },
  { key: 'elaborate', label: 'Elaborate - Instructional Activities', hasInstructionTypes: true },
  { key: 'evaluate', label: 'Evaluate - Closing/Wrap-Up', hasInstructionTypes: false },
] as const;
export type LessonPlanPhaseKey = (typeof LESSON_PLAN_PHASES)[number]['key'];

export const SLIDE_TITLE_MAX = 200;
export const SLIDE_DESCRIPTION_MAX = 2000;
export const SLIDE_URL_MAX = 2048;
export const SLIDE_CATEGORY_MAX = 100;
export const SLIDE_TAGS_MAX = 20;
export const SLIDE_TAG_MAX = 50;
export const SLIDE_DEFAULT_IS_PUBLIC = true;
/** Spec §5, §9: the embed's slide delay and the preview frame's height. */
export const SLIDE_EMBED_DELAY_MS = 3000;
export const SLIDE_PREVIEW_HEIGHT = 200;

/** Texts of the spec (classroom-tools §2, §5, §8), shared by the classroom service and the web. */
export const ClassroomMessages = {
  // Audio lists (spec §5, §8).
  audioListRequired: 'Please provide a title and at least one audio file.',
  saveAudioListFailed: 'Failed to save audio list',
  deleteAudioListFailed: 'Failed to delete audio list',
  playFailed: (name: string) => `Failed to play ${name}. Please check the audio URL.`,
  // Lesson plans (spec §2, §8).
  lessonPlansHeading: 'Lesson Plans',
  createLessonPlan: 'Create New Lesson Plan',
  lessonPlansEmptyTitle: 'No lesson plans yet',
  lessonPlansEmptyBody: 'Create your first lesson plan to get started',
  lessonPlansRestricted: 'Access Restricted: Only teachers and administrators can access lesson plans.',
  createPlan: 'Create Plan',
  updatePlan: 'Update Plan',
  cancel: 'Cancel',
  fetchLessonPlansFailed: 'Failed to fetch lesson plans',
  saveLessonPlanFailed: 'Failed to save lesson plan',
  deleteLessonPlanFailed: 'Failed to delete lesson plan',
  deleteLessonPlanConfirm: 'Are you sure you want to delete this lesson plan?',
  // Google Slides (spec §2, §5, §8).
  slidesHeading: 'Google Slides',
  slidesLoginRequired: 'Authentication Required: Please log in to access Google Slides.',
  slidesEmptyTeacher: 'Add your first Google Slides presentation to get started',
  previewNotAvailable: 'Preview not available.',
  openInGoogleSlides: 'Open in Google Slides',
  /** The sharing setting the help text names (spec §2). */
  slidesSharingSetting: 'Anyone with the link can view',
  fetchSlidesFailed: 'Failed to fetch Google Slides',
  saveSlideFailed: 'Failed to save Google Slide',
  deleteSlideFailed: 'Failed to delete Google Slide',
  invalidSlidesUrl: 'Please enter a valid Google Slides URL',
  noSlidesUrl: 'No Google Slides URL available for this presentation',
  deleteSlideConfirm: 'Are you sure you want to delete this Google Slide?',
  /** The creator name an item keeps once its creator's account is deleted (ADR 0020). */
  formerMember: 'Former staff member',
  // Server answers the spec does not word, in its tone.
  bodyNotObject: 'Send the item as a JSON object',
  audioListNotFound: 'Audio list not found',
  lessonPlanNotFound: 'Lesson plan not found',
  slideNotFound: 'Google Slide not found',
  staffOnly: 'Only teachers and administrators can do this.',
  audioListOwnerOnly: 'Only the teacher who created this audio list or an administrator can change it.',
  lessonPlanOwnerOnly: 'Only the teacher who created this lesson plan or an administrator can change it.',
  slideOwnerOnly: 'Only the teacher who added this Google Slide or an administrator can change it.',
  audioListTitleTooLong: `Title must be at most ${AUDIO_LIST_TITLE_MAX} characters`,
  audioListDescriptionTooLong: `Description must be at most ${AUDIO_LIST_DESCRIPTION_MAX} characters`,
  tooManyAudioFiles: `An audio list can have at most ${AUDIO_LIST_FILES_MAX} files`,
  audioFileNameRequired: (n: number) => `Audio file ${n} needs a name.`,
  audioFileNameTooLong: (n: number) =>
    `Audio file ${n}: the name must be at most ${AUDIO_FILE_NAME_MAX} characters`,
  audioFileUrlInvalid: (n: number) =>
    `Audio file ${n} needs a URL: http:// or https://, or a path on this site starting with / (at most ${AUDIO_FILE_URL_MAX} characters).`,
  lessonPlanTitleRequired: 'Title is required',
  lessonPlanTitleTooLong: `Title must be at most ${LESSON_PLAN_TITLE_MAX} characters`,
  lessonPlanFieldTooLong: (field: string, max: number) => `${field} must be at most ${max} characters`,
  lessonPlanFieldNotText: (field: string) => `${field} must be text`,
  lessonPlanDateInvalid: 'Date must be a date (YYYY-MM-DD) or empty',
  instructionTypeInvalid: (field: string) =>
    `${field}: instruction types must be from the list (${INSTRUCTION_TYPES.join(', ')})`,
  slideTitleRequired: 'Title is required',
  slideTitleTooLong: `Title must be at most ${SLIDE_TITLE_MAX} characters`,
  slideDescriptionTooLong: `Description must be at most ${SLIDE_DESCRIPTION_MAX} characters`,
  slideUrlRequired: 'Google Slides URL is required',
  slideCategoryTooLong: `Category must be at most ${SLIDE_CATEGORY_MAX} characters`,
  slideTagsInvalid: `Tags must be at most ${SLIDE_TAGS_MAX}, each at most ${SLIDE_TAG_MAX} characters`,
  slideIsPublicInvalid: 'isPublic must be true or false',
  // The item's school (issue #36).
  schoolIdInvalid: 'schoolId must be a school id',
  schoolNotYours: 'Choose a school you teach in or administer',
} as const;

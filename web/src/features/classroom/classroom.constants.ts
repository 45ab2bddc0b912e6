/** Texts the spec (classroom-tools) does not word and `ClassroomMessages` does not carry, in the spec's tone. */
export const ClassroomTexts = {
  // Audio lists.
  audioListsTitle: 'Audio Lists',
  audioListsDescription: 'Lists of recordings to listen to and practise with.',
  createAudioList: 'Create Audio List',
  noAudioLists: 'No audio lists yet.',
  noAudioListsStaff: 'No audio lists yet. Create the first one for your class.',
  fetchAudioListsFailed: 'Failed to fetch audio lists',
  deleteAudioListConfirm: 'Are you sure you want to delete this audio list?',
  audioListCreated: 'Audio list created successfully',
  audioListUpdated: 'Audio list updated successfully',
  audioListDeleted: 'Audio list deleted successfully',
  // Lesson plans.
  lessonPlansDescription: 'Plan lessons in five phases: engage, explore, explain, elaborate and evaluate.',
  lessonPlanCreated: 'Lesson plan created successfully',
  lessonPlanUpdated: 'Lesson plan updated successfully',
  lessonPlanDeleted: 'Lesson plan deleted successfully',
  copyOf: (title: string) => `Copy of ${title}`,
  // Google Slides.
  slidesDescription: 'Presentations to share with your classes.',
  addSlide: 'Add Google Slides',
  slidesEmptyOthers: 'No presentations are available yet.',
  slideCreated: 'Google Slide added successfully',
  slideUpdated: 'Google Slide updated successfully',
  slideDeleted: 'Google Slide deleted successfully',
  visibleToStudents: 'Visible to students',
  notVisibleToStudents: 'Teachers only',
  // Sound demo.
  soundDemoDescription: 'Every sound the classroom tools use, in one place, and a tester for audio links.',
  soundDemoSignIn: 'Sign in to hear the files of the audio lists.',
  urlTesterDescription:
    "Paste a link to an audio file to check that it plays. Links on cloud storage play through the site's audio proxy.",
  urlTesterHint: 'MP3, WAV, OGG or M4A; Google Drive, Dropbox, OneDrive and iCloud links are supported.',
  tryAgainLater: 'Please try again in a moment.',
} as const;

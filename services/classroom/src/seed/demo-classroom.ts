import {
  demoAccount,
  type AudioListInput,
  type GoogleSlideInput,
  type LessonPlanInput,
} from '@district/contracts';

/**
 * The demo district's classroom material, written by the demo teacher, so the audio lists, lesson plans and slides
 * screens are not empty on first start. Fixed ids: seeding is idempotent and a teacher's edits survive restarts.
 *
 * The audio is shipped with the web app (web/public/sounds): the files are site paths (`/sounds/...`), which the
 * site serves itself, so they play directly (not through the audio proxy) on any host name the site runs under.
 */
export const DEMO_AUDIO_LIST: { id: string; input: AudioListInput } = {
  id: '00000000-0000-4000-8000-0000000c0001',
  input: {
    title: 'El alfabeto: vocales y letras especiales',
    description:
      'The five Spanish vowels and the letters English does not have (ch, ll, ñ, rr), then four greetings.',
    audioFiles: [
      { name: 'A', url: '/sounds/spanish/a.mp3' },
      { name: 'E', url: '/sounds/spanish/e.mp3' },
      { name: 'I', url: '/sounds/spanish/i.mp3' },
      { name: 'O', url: '/sounds/spanish/o.mp3' },
      { name: 'U', url: '/sounds/spanish/u.mp3' },
      { name: 'Ch', url: '/sounds/spanish/ch.mp3' },
      { name: 'Ll', url: '/sounds/spanish/ll.mp3' },
      { name: 'Ñ', url: `/sounds/spanish/${encodeURIComponent('ñ')}.mp3` },
      { name: 'RR', url: '/sounds/spanish/rr.mp3' },
      { name: 'Hola', url: '/sounds/quiz/hola.mp3' },
      { name: 'Buenos días', url: '/sounds/quiz/buenos-dias.mp3' },
      { name: '¿Cómo estás?', url: '/sounds/quiz/como-estas.mp3' },
      { name: 'Gracias', url: '/sounds/quiz/gracias.mp3' },
    ],
  },
};

const allTypes = ['Teacher Directed Instruction', 'Guided Practice'] as const;

export const DEMO_LESSON_PLAN: { id: string; input: LessonPlanInput } = {
  id: '00000000-0000-4000-8000-0000000c0002',
  input: {
    title: 'Greetings and introductions',
    teacher: demoAccount('teacher').name,
    date: '2026-09-14',
    subject: 'Spanish I',
    topic: 'Unit 1: ¡Hola! Greetings',
    standards: 'ACTFL Interpersonal Communication: exchange greetings and basic personal information.',
    iCanStatements: 'I can greet someone and say goodbye.\nI can ask someone how they are and answer.',
    academicVocabulary: 'hola, buenos días, buenas tardes, ¿cómo estás?, bien, mal, adiós, hasta mañana',
    dokQuestions:
      'DOK 2: When would you use "buenos días" instead of "hola"?\nDOK 3: How do greetings differ between formal and informal situations?',
    warmUp: {
      timeAllotted: '10 mins',
      teacherWill: 'Greet each student at the door in Spanish and play the "Hola" audio.',
      studentsWill: 'Answer the greeting and guess what it means.',
      instructionTypes: [...allTypes],
    },
    explore: {
      timeAllotted: '15 mins',
      teacherWill: 'Play the greetings audio list and pause after each one.',
      studentsWill: 'Sort the greetings by time of day in pairs.',
      instructionTypes: ['Guided Practice', 'Collaborative learning'],
    },
    explain: {
      timeAllotted: '20 mins',
      teacherWill: 'Model formal and informal greetings and the question "¿Cómo estás?".',
      studentsWill: 'Take notes and repeat each greeting aloud.',
      instructionTypes: ['Teacher Directed Instruction'],
    },
    elaborate: {
      timeAllotted: '30 mins',
      teacherWill: 'Set up a role-play: meeting a new classmate, a teacher, a neighbour.',
      studentsWill: 'Perform a short role-play in groups of three, switching roles.',
      instructionTypes: [
        'Independent Practice/Learning Tasks',
        'Collaborative learning',
        'Student Discourse',
      ],
    },
    evaluate: {
      timeAllotted: '15 mins',
      teacherWill: 'Run the "Saludos" audio quiz and check the results dashboard.',
      studentsWill: 'Take the quiz and write one greeting for tomorrow on an exit ticket.',
    },
    totalTime: '90 mins',
    evaluation: 'Exit ticket and the audio quiz: 70% or more shows understanding.',
    reflection: 'Most students confused "buenas tardes" and "buenas noches": revisit tomorrow.',
  },
};

/**
 * Real, public Google Slides decks, each found in Google's own documentation or samples (ids are never invented: a
 * made-up id shows a broken preview and an "Open in Google Slides" that fails). Checked against these sources only;
 * the demo machine has no internet, so the decks themselves were not opened (ADR 0035).
 */
export const PUBLIC_DEMO_DECKS = {
  /**
   * The Google Slides API's sample presentation, read by every quickstart: developers.google.com/slides/api/samples/reading
   * ("the examples read from this example presentation") and googleworkspace/apps-script-samples
   * slides/quickstart/quickstart.gs (`https://docs.google.com/presentation/d/<id>/edit`).
   */
  slidesApiSample: '1EAYk18WDjIG-zp_0vLm3CsfQh_i8eXc67Jo2O9C6Vuc',
  /**
   * Google Slides' "Employee Certificate" template, linked for copying ("/copy", so anyone with the link can view it)
   * from googleworkspace/solutions employee-certificate/README.md.
   */
  certificateTemplate: '1bFj09xI7g_kbA76Xb60tYyxVdi-zrpm6zQ6gu696vKs',
} as const;

const deckUrl = (id: string) => `https://docs.google.com/presentation/d/${id}/edit?usp=sharing`;

export const DEMO_SLIDES: readonly { id: string; input: GoogleSlideInput; retiredUrls: readonly string[] }[] =
  [
    {
      id: '00000000-0000-4000-8000-0000000c0003',
      input: {
        title: 'Sample deck: how a shared presentation looks here',
        description:
          "Google's public sample presentation from the Google Slides API documentation. Shared as 'Anyone with the link can view', it previews here and opens in Google Slides; add your own decks the same way.",
        googleSlidesUrl: deckUrl(PUBLIC_DEMO_DECKS.slidesApiSample),
        isPublic: true,
        category: 'Getting started',
        tags: ['sample', 'how to'],
      },
      // What earlier versions seeded: invented ids, replaced on a demo site that still has them.
      retiredUrls: [
        'https://docs.google.com/presentation/d/e/2PACX-1vDemoSaludosPublishedDeck_0001/pub?start=false&loop=false',
      ],
    },
    {
      id: '00000000-0000-4000-8000-0000000c0004',
      input: {
        title: 'Certificate template (teachers only)',
        description:
          "Google Slides' Employee Certificate template: make a copy, change the names and award students at the end of a unit. Not shown to students.",
        googleSlidesUrl: deckUrl(PUBLIC_DEMO_DECKS.certificateTemplate),
        isPublic: false,
        category: 'Templates',
        tags: ['certificate', 'template'],
      },
      retiredUrls: [
        'https://docs.google.com/presentation/d/1DemoUnitOneAnswerKey-Teachers_0002/edit#slide=id.p',
      ],
    },
  ];

export const DEMO_AUTHOR = demoAccount('teacher');

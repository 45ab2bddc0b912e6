import {
  deriveEmbedUrl,
  INSTRUCTION_TYPES,
  type AudioList,
  type GoogleSlide,
  type LessonPlan,
  type LessonPlanPhase,
} from '@district/contracts/classroom';

let seq = 0;
const nextId = () => {
  seq += 1;
  return `10000000-0000-4000-8000-${String(seq).padStart(12, '0')}`;
};

export function makeAudioList(overrides: Partial<AudioList> = {}): AudioList {
  return {
    id: nextId(),
    title: 'Saludos',
    description: 'Greetings to practise',
    audioFiles: [
      { name: 'Hola', url: '/sounds/quiz/hola.mp3' },
      { name: 'Gracias', url: 'https://drive.google.com/file/d/abc123/view' },
    ],
    creatorId: null,
    creatorName: 'Tia Teacher',
    createdAt: '2025-03-05T10:00:00.000Z',
    updatedAt: '2025-03-05T10:00:00.000Z',
    canEdit: false,
    ...overrides,
  };
}

const phase = (name: string, types: LessonPlanPhase['instructionTypes'] = []): LessonPlanPhase => ({
  timeAllotted: '10 mins',
  teacherWill: `${name}: teacher`,
  studentsWill: `${name}: students`,
  instructionTypes: types,
});

export function makeLessonPlan(overrides: Partial<LessonPlan> = {}): LessonPlan {
  return {
    id: nextId(),
    title: 'Greetings',
    teacher: 'Tia Teacher',
    date: '2025-03-05',
    subject: 'Spanish',
    topic: 'Unit 1: Saludos',
    standards: 'ACTFL 1.1',
    iCanStatements: 'I can greet a classmate',
    academicVocabulary: 'hola, adiós',
    dokQuestions: 'When would you use usted?',
    warmUp: phase('Engage', [INSTRUCTION_TYPES[0]]),
    explore: phase('Explore', [INSTRUCTION_TYPES[1], INSTRUCTION_TYPES[3]]),
    explain: phase('Explain'),
    elaborate: phase('Elaborate', [INSTRUCTION_TYPES[4]]),
    evaluate: {
      timeAllotted: '5 mins',
      teacherWill: 'Evaluate: teacher',
      studentsWill: 'Evaluate: students',
    },
    totalTime: '90 mins',
    evaluation: 'Exit ticket',
    reflection: 'Went well',
    creatorId: null,
    creatorName: 'Tia Teacher',
    createdAt: '2025-03-06T10:00:00.000Z',
    updatedAt: '2025-03-06T10:00:00.000Z',
    canEdit: true,
    ...overrides,
  };
}

export const SLIDES_URL = 'https://docs.google.com/presentation/d/1AbC_d-9/edit#slide=id.p';
export const PUBLISHED_URL = 'https://docs.google.com/presentation/d/e/2PACX-1vQ_x-Y/pub?start=false';

export function makeSlide(overrides: Partial<GoogleSlide> = {}): GoogleSlide {
  const googleSlidesUrl = overrides.googleSlidesUrl ?? SLIDES_URL;
  return {
    id: nextId(),
    title: 'Los colores',
    description: 'Colours vocabulary',
    googleSlidesUrl,
    embedUrl: deriveEmbedUrl(googleSlidesUrl),
    isPublic: true,
    category: 'Vocabulary',
    tags: ['colours', 'unit 2'],
    creatorId: null,
    creatorName: 'Tia Teacher',
    createdAt: '2025-03-07T10:00:00.000Z',
    updatedAt: '2025-03-07T10:00:00.000Z',
    canEdit: false,
    ...overrides,
  };
}

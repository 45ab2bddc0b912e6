import { demoAccount, type QuizInput, type QuizKind } from '@district/contracts';

export interface DemoQuiz {
  id: string;
  kind: QuizKind;
  input: (publicUrl: string) => QuizInput;
  /** The demo student's graded attempts: their answers, and a fixed idempotency key (seeding twice stores once). */
  attempts: { key: string; answers: number[] }[];
}

const sound = (publicUrl: string, stem: string) => `${publicUrl.replace(/\/$/, '')}/sounds/quiz/${stem}.mp3`;

/**
 * The demo district's quizzes (written by the demo teacher) and the demo student's results, so the quiz screens,
 * both dashboards and the profile are not empty on first start. The audio is shipped with the app
 * (web/public/sounds/quiz, made by web/scripts/generate-quiz-demo-audio.sh). Fixed ids: seeding is idempotent and a
 * teacher's edits survive restarts.
 */
export const DEMO_QUIZZES: readonly DemoQuiz[] = [
  {
    id: '00000000-0000-4000-8000-0000000a0001',
    kind: 'audio',
    input: (url) => ({
      title: 'Saludos: escucha y elige',
      description: 'Listen to each greeting and choose what it means.',
      maxAttempts: 3,
      audioPlayLimit: null,
      revealAnswers: 'always',
      questions: [
        {
          audioUrl: sound(url, 'hola'),
          question: 'What does the speaker say?',
          options: ['Goodbye', 'Hello', 'Thank you', 'Please'],
          correctAnswer: 1,
        },
        {
          audioUrl: sound(url, 'gracias'),
          question: 'What does the speaker say?',
          options: ['Thank you', 'Sorry', 'Good night', 'Yes'],
          correctAnswer: 0,
        },
        {
          audioUrl: sound(url, 'buenos-dias'),
          question: 'When would you say this?',
          options: ['At night', 'When leaving', 'In the morning', 'When eating'],
          correctAnswer: 2,
        },
        {
          audioUrl: sound(url, 'como-estas'),
          question: 'What is the speaker asking?',
          options: ['Where are you?', 'What is your name?', 'How old are you?', 'How are you?'],
          correctAnswer: 3,
        },
      ],
    }),
    attempts: [{ key: '00000000-0000-4000-8000-0000000b0001', answers: [1, 0, 2, 0] }],
  },
  {
    id: '00000000-0000-4000-8000-0000000a0002',
    kind: 'text',
    input: () => ({
      title: 'Los colores',
      description: 'Choose the English word for each colour.',
      maxAttempts: 2,
      audioPlayLimit: null,
      revealAnswers: 'always',
      questions: [
        { question: 'rojo', options: ['blue', 'red', 'green', 'yellow'], correctAnswer: 1 },
        { question: 'verde', options: ['green', 'grey', 'purple', 'white'], correctAnswer: 0 },
        { question: 'amarillo', options: ['orange', 'brown', 'yellow', 'black'], correctAnswer: 2 },
        { question: 'azul', options: ['pink', 'red', 'white', 'blue'], correctAnswer: 3 },
      ],
    }),
    attempts: [{ key: '00000000-0000-4000-8000-0000000b0002', answers: [1, 0, 1, 0] }],
  },
];

export const DEMO_AUTHOR = demoAccount('teacher');
export const DEMO_STUDENT = demoAccount('student');

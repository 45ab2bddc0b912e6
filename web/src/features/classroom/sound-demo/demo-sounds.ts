/** The demo quiz's recordings, shipped in web/public/sounds/quiz (the demo audio quiz and audio list play them). */
export const DEMO_QUIZ_SOUNDS: readonly { name: string; src: string }[] = [
  { name: 'Hola', src: '/sounds/quiz/hola.mp3' },
  { name: 'Buenos días', src: '/sounds/quiz/buenos-dias.mp3' },
  { name: '¿Cómo estás?', src: '/sounds/quiz/como-estas.mp3' },
  { name: 'Gracias', src: '/sounds/quiz/gracias.mp3' },
  { name: 'Hasta mañana', src: '/sounds/quiz/hasta-manana.mp3' },
];

export interface CodeStep {
  title: string;
  description: string;
  code: string;
}

/** Spec section 9: a step every 2 s through 5 sample states. */
export const STEP_MS = 2000;

/** Five states of one small program, each adding one idea to the last. */
export const SAMPLE_STEPS: readonly CodeStep[] = [
  {
    title: 'Print a greeting',
    description: 'One line that shows a message.',
    code: `console.log('¡Hola, mundo!');`,
  },
  {
    title: 'Wrap it in a function',
    description: 'A function gives the greeting a name we can call again.',
    code: `function greet() {
  console.log('¡Hola, mundo!');
}

greet();`,
  },
  {
    title: 'Add a parameter',
    description: 'The function now greets whoever we pass in.',
    code: `function greet(name) {
  console.log(\`¡Hola, \${name}!\`);
}

greet('Ana');`,
  },
  {
    title: 'Return a value',
    description:
      'Returning the text lets the caller decide what to do with it; a default covers a missing name.',
    code: `function greet(name = 'amigo') {
  return \`¡Hola, \${name}!\`;
}

console.log(greet('Ana'));
console.log(greet());`,
  },
  {
    title: 'Greet the whole class',
    description: 'map applies the function to every student in a list.',
    code: `function greet(name = 'amigo') {
  return \`¡Hola, \${name}!\`;
}

const students = ['Ana', 'Luis', 'Sofía'];
const greetings = students.map(greet);

greetings.forEach((line) => console.log(line));`,
  },
];

export const EvolutionMessages = {
  title: 'Code Evolution',
  description: 'Watch a program grow one step at a time. Lines that are new in a step are highlighted.',
  play: 'Play',
  pause: 'Pause',
  reset: 'Reset',
  timeline: 'Timeline',
  customLabel: 'Your code',
  customHint: 'Paste or type code to add it as the next step of the timeline.',
  addCustom: 'Add to Timeline',
  customTitle: (n: number) => `Custom step ${n}`,
  customDescription: 'Code you added.',
} as const;

import { demoAccount, type DemoAccountKey } from '@district/contracts';

/** The demo district's lessons. Fixed ids, so seeding is idempotent and other services may refer to them. */
export interface DemoCategory {
  id: string;
  name: string;
  slug: string;
  description: string;
}

export interface DemoPost {
  id: string;
  slug: string;
  title: string;
  categoryId: string;
  author: DemoAccountKey;
  tags: string[];
  content: string;
  /** Days before the seeding, so the list has a stable, plausible order. */
  daysAgo: number;
}

export interface DemoComment {
  id: string;
  postId: string;
  author: DemoAccountKey;
  content: string;
  status: 'approved' | 'pending';
  parentId: string | null;
}

const GRAMMAR = '00000000-0000-4000-8000-0000000c0001';
const VOCABULARY = '00000000-0000-4000-8000-0000000c0002';
const CULTURE = '00000000-0000-4000-8000-0000000c0003';

export const DEMO_CATEGORIES: readonly DemoCategory[] = [
  {
    id: GRAMMAR,
    name: 'Grammar',
    slug: 'grammar',
    description: 'Verbs, tenses and sentence structure, one step at a time.',
  },
  {
    id: VOCABULARY,
    name: 'Vocabulary',
    slug: 'vocabulary',
    description: 'Everyday words and phrases, grouped by theme.',
  },
  {
    id: CULTURE,
    name: 'Culture',
    slug: 'culture',
    description: 'Traditions, food and festivals of the Spanish-speaking world.',
  },
];

const post = (n: number) => `00000000-0000-4000-8000-0000000b000${n}`;

export const DEMO_POSTS: readonly DemoPost[] = [
  {
    id: post(1),
    slug: 'ser-vs-estar',
    title: 'Ser vs. Estar: Two Ways to Say "To Be"',
    categoryId: GRAMMAR,
    author: 'teacher',
    tags: ['verbs', 'beginner'],
    daysAgo: 20,
    content:
      '<h2>Permanent or temporary?</h2><p>Spanish has two verbs for <em>to be</em>. Use <strong>ser</strong> for identity, origin and time: <em>Soy profesora. Es lunes.</em></p><p>Use <strong>estar</strong> for location and states that change: <em>Estoy cansado. La biblioteca está cerca.</em></p><ul><li>Ser: descripción, origen, hora</li><li>Estar: lugar, emoción, condición</li></ul>',
  },
  {
    id: post(2),
    slug: 'present-tense-regular-verbs',
    title: 'The Present Tense of Regular Verbs',
    categoryId: GRAMMAR,
    author: 'admin',
    tags: ['verbs', 'present tense'],
    daysAgo: 16,
    content:
      '<p>Regular verbs end in <strong>-ar</strong>, <strong>-er</strong> or <strong>-ir</strong>. Drop the ending and add the one for the person.</p><table><thead><tr><th></th><th>hablar</th><th>comer</th><th>vivir</th></tr></thead><tbody><tr><td>yo</td><td>hablo</td><td>como</td><td>vivo</td></tr><tr><td>tú</td><td>hablas</td><td>comes</td><td>vives</td></tr><tr><td>él/ella</td><td>habla</td><td>come</td><td>vive</td></tr></tbody></table>',
  },
  {
    id: post(3),
    slug: 'classroom-vocabulary',
    title: 'Classroom Vocabulary: En la clase',
    categoryId: VOCABULARY,
    author: 'teacher',
    tags: ['vocabulary', 'beginner'],
    daysAgo: 12,
    content:
      '<p>Words you will hear every day:</p><ul><li><strong>el lápiz</strong> — pencil</li><li><strong>el cuaderno</strong> — notebook</li><li><strong>la pizarra</strong> — board</li><li><strong>la mochila</strong> — backpack</li></ul><p>Practise with a partner: <em>¿Tienes un lápiz? Sí, tengo dos.</em></p>',
  },
  {
    id: post(4),
    slug: 'food-and-the-market',
    title: 'At the Market: Food Words and Polite Requests',
    categoryId: VOCABULARY,
    author: 'admin',
    tags: ['vocabulary', 'food'],
    daysAgo: 8,
    content:
      '<p>At the market, be polite: <em>Quisiera un kilo de tomates, por favor.</em></p><p>Useful words: <strong>las manzanas</strong>, <strong>el pan</strong>, <strong>el queso</strong>, <strong>las naranjas</strong>.</p><blockquote>¿Cuánto cuesta? — How much is it?</blockquote>',
  },
  {
    id: post(5),
    slug: 'dia-de-los-muertos',
    title: 'Día de los Muertos',
    categoryId: CULTURE,
    author: 'teacher',
    tags: ['culture', 'mexico', 'festivals'],
    daysAgo: 4,
    content:
      '<p>On the first two days of November, families in Mexico remember their loved ones with <strong>ofrendas</strong>: altars with photos, marigolds (<em>cempasúchil</em>), candles and <em>pan de muerto</em>.</p><p>Discuss: how do families in your community remember people?</p>',
  },
  {
    id: post(6),
    slug: 'greetings-around-the-spanish-speaking-world',
    title: 'Greetings Around the Spanish-Speaking World',
    categoryId: CULTURE,
    author: 'admin',
    tags: ['culture', 'greetings', 'beginner'],
    daysAgo: 1,
    content:
      '<p><em>¡Hola!</em> works everywhere, but listen for <em>¿Qué onda?</em> in Mexico, <em>¿Qué tal?</em> in Spain and <em>¿Qué más?</em> in Colombia.</p><p>In Spain, friends often greet with two kisses on the cheek; in much of Latin America, one.</p>',
  },
];

const comment = (n: number) => `00000000-0000-4000-8000-0000000e000${n}`;

export const DEMO_COMMENTS: readonly DemoComment[] = [
  {
    id: comment(1),
    postId: post(1),
    author: 'student',
    content: '<p>The list of uses helped me a lot. ¡Gracias!</p>',
    status: 'approved',
    parentId: null,
  },
  {
    id: comment(2),
    postId: post(1),
    author: 'teacher',
    content: '<p>¡De nada! Try the quiz next.</p>',
    status: 'approved',
    parentId: comment(1),
  },
  {
    id: comment(3),
    postId: post(3),
    author: 'student2',
    content: '<p>Is it <em>la lápiz</em> or <em>el lápiz</em>?</p>',
    status: 'pending',
    parentId: null,
  },
];

export function authorOf(key: DemoAccountKey): { id: string; name: string } {
  const account = demoAccount(key);
  return { id: account.id, name: account.name };
}

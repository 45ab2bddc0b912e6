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
  /** Written for the cards, as a teacher would: never cut mid-sentence. */
  excerpt: string;
  /** The SEO page's four checks (spec §5) pass: title 30–60 characters, description 120–160, keyword, keywords. */
  seoTitle: string;
  metaDescription: string;
  focusKeyword: string;
  metaKeywords: string[];
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
    excerpt:
      'Spanish has two verbs for "to be": ser for identity, origin and time, and estar for location and for states that change.',
    seoTitle: 'Ser vs. Estar: When to Use Each Spanish Verb "To Be"',
    metaDescription:
      'Ser vs. estar, the two Spanish verbs for "to be": ser for identity, origin and time, estar for location, feelings and states that change, with examples.',
    focusKeyword: 'ser vs. estar',
    metaKeywords: ['ser', 'estar', 'Spanish verbs', 'to be in Spanish'],
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
    excerpt:
      'Drop the -ar, -er or -ir ending and add the one for the person: hablar, comer and vivir, conjugated in one table.',
    seoTitle: 'Present Tense of Regular Verbs in Spanish: -ar, -er, -ir',
    metaDescription:
      'The present tense of regular verbs in Spanish: drop the -ar, -er or -ir ending and add the one for the person, with hablar, comer and vivir in a table.',
    focusKeyword: 'present tense of regular verbs',
    metaKeywords: ['present tense', 'regular verbs', 'conjugation', 'hablar', 'comer', 'vivir'],
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
    excerpt:
      'Pencil, notebook, board and backpack in Spanish, with a short question and answer to practise with a partner.',
    seoTitle: 'Spanish Classroom Vocabulary: En la clase',
    metaDescription:
      'Spanish classroom vocabulary for every day: el lápiz, el cuaderno, la pizarra and la mochila, then a short question and answer to practise with a partner.',
    focusKeyword: 'classroom vocabulary',
    metaKeywords: ['classroom vocabulary', 'school supplies', 'beginner Spanish'],
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
    excerpt:
      'Useful food words and the polite way to ask for them at the market: Quisiera un kilo de tomates, por favor. ¿Cuánto cuesta?',
    seoTitle: 'At the Market: Spanish Food Words and Polite Requests',
    metaDescription:
      'Spanish food words for the market, las manzanas, el pan, el queso and las naranjas, and polite requests: Quisiera un kilo de tomates, por favor.',
    focusKeyword: 'Spanish food words',
    metaKeywords: ['food vocabulary', 'market', 'polite requests', 'quisiera'],
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
    excerpt:
      'How families in Mexico remember their loved ones on the first two days of November, and a question to discuss in class.',
    seoTitle: 'Día de los Muertos: Ofrendas, Marigolds and Pan de Muerto',
    metaDescription:
      'Día de los Muertos in Mexico: on the first two days of November families remember loved ones with ofrendas, marigolds, candles and pan de muerto.',
    focusKeyword: 'Día de los Muertos',
    metaKeywords: ['Día de los Muertos', 'Day of the Dead', 'Mexico', 'ofrenda', 'festivals'],
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
    excerpt:
      '¡Hola! works everywhere, but each country has its own everyday greeting, and its own number of kisses on the cheek.',
    seoTitle: 'Spanish Greetings Around the World: Mexico, Spain, Colombia',
    metaDescription:
      'Spanish greetings around the world: ¡Hola! works everywhere, but listen for ¿Qué onda? in Mexico, ¿Qué tal? in Spain and ¿Qué más? in Colombia.',
    focusKeyword: 'Spanish greetings',
    metaKeywords: ['greetings', 'Spanish greetings', 'culture', 'Latin America', 'Spain'],
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

import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { demoAccount } from '@district/contracts';

/**
 * Lesson-like vocabulary, Spanish and English as the demo lessons mix them. The full-text index is 'simple'
 * (no stemming), so a varied vocabulary is what makes the GIN index and a `q=` search representative.
 */
export const SEED_VOCABULARY: readonly string[] = [
  'hablar',
  'comer',
  'vivir',
  'escribir',
  'leer',
  'aprender',
  'estudiar',
  'practicar',
  'repetir',
  'escuchar',
  'pronunciar',
  'conjugar',
  'traducir',
  'preguntar',
  'responder',
  'viajar',
  'cocinar',
  'jugar',
  'trabajar',
  'dormir',
  'casa',
  'escuela',
  'familia',
  'amigo',
  'ciudad',
  'mercado',
  'playa',
  'montaña',
  'biblioteca',
  'cocina',
  'mañana',
  'tarde',
  'noche',
  'semana',
  'verano',
  'invierno',
  'primavera',
  'otoño',
  'lunes',
  'domingo',
  'rojo',
  'azul',
  'verde',
  'amarillo',
  'blanco',
  'negro',
  'grande',
  'pequeño',
  'nuevo',
  'antiguo',
  'subjuntivo',
  'indicativo',
  'pretérito',
  'imperfecto',
  'futuro',
  'condicional',
  'imperativo',
  'gerundio',
  'participio',
  'infinitivo',
  'sustantivo',
  'adjetivo',
  'adverbio',
  'pronombre',
  'artículo',
  'preposición',
  'ser',
  'estar',
  'tener',
  'hacer',
  'poder',
  'querer',
  'saber',
  'conocer',
  'decir',
  'venir',
  'verb',
  'noun',
  'tense',
  'mood',
  'agreement',
  'gender',
  'plural',
  'accent',
  'stress',
  'syllable',
  'vowel',
  'consonant',
  'dialogue',
  'reading',
  'listening',
  'writing',
  'speaking',
  'exercise',
  'example',
  'rule',
  'exception',
  'pattern',
  'ending',
  'stem',
  'irregular',
  'regular',
  'reflexive',
  'object',
  'subject',
  'clause',
  'students',
  'teacher',
  'class',
  'homework',
  'quiz',
  'review',
  'practice',
  'lesson',
  'unit',
  'chapter',
  'culture',
  'tradition',
  'festival',
  'music',
  'food',
  'history',
  'geography',
  'country',
  'region',
  'city',
  'México',
  'España',
  'Argentina',
  'Colombia',
  'Perú',
  'Chile',
  'Cuba',
  'Bolivia',
  'Ecuador',
  'Venezuela',
  'remember',
  'notice',
  'compare',
  'translate',
  'complete',
  'choose',
  'match',
  'describe',
  'explain',
  'answer',
  'the',
  'a',
  'and',
  'with',
  'for',
  'when',
  'because',
  'usually',
  'always',
  'never',
  'el',
  'la',
  'los',
  'las',
  'un',
  'una',
  'y',
  'con',
  'para',
  'porque',
];

/** Lesson subjects: titles are a subject, an angle and a lesson number, like an editor's. */
export const SEED_TOPICS: readonly string[] = [
  'Ser vs Estar',
  'The Preterite',
  'The Imperfect',
  'Preterite or Imperfect?',
  'The Present Subjunctive',
  'The Imperfect Subjunctive',
  'Commands',
  'Reflexive Verbs',
  'Gustar and Similar Verbs',
  'Por vs Para',
  'Direct Object Pronouns',
  'Indirect Object Pronouns',
  'Adjective Agreement',
  'Numbers 1 to 100',
  'Telling Time',
  'Days and Months',
  'Weather Expressions',
  'Food and Drink',
  'At the Market',
  'Family Members',
  'Around the House',
  'In the City',
  'Travel Phrases',
  'At the Doctor',
  'Clothes and Colours',
  'Rolling the R',
  'Written Accents',
  'Diphthongs',
  'Day of the Dead',
  'La Tomatina',
  'Las Posadas',
  'Tapas Culture',
  'Music of the Caribbean',
  'The Future Tense',
  'The Conditional',
  'Present Perfect',
  'Comparisons',
  'Superlatives',
  'False Friends',
  'Everyday Idioms',
];

export const SEED_ANGLES: readonly string[] = [
  'A First Look',
  'Practice Set',
  'Common Mistakes',
  'Dialogue',
  'Review',
  'Quick Quiz',
  'In Context',
  'Listening Practice',
  'Reading Practice',
  'Writing Workshop',
  'Conversation Starters',
  'Cheat Sheet',
];

/** The categories a district would have; the demo's three (grammar, vocabulary, culture) are among them. */
export const SEED_CATEGORIES: ReadonlyArray<{ name: string; slug: string; description: string }> = [
  { name: 'Grammar', slug: 'grammar', description: 'Verb tenses, agreement and sentence structure.' },
  { name: 'Vocabulary', slug: 'vocabulary', description: 'Words and phrases for everyday situations.' },
  {
    name: 'Culture',
    slug: 'culture',
    description: 'Traditions, food and festivals of the Spanish-speaking world.',
  },
  { name: 'Pronunciation', slug: 'pronunciation', description: 'Sounds, stress and accents.' },
  { name: 'Listening', slug: 'listening', description: 'Audio-based lessons and dictations.' },
  { name: 'Reading', slug: 'reading', description: 'Short texts with comprehension questions.' },
  { name: 'Writing', slug: 'writing', description: 'Guided writing tasks.' },
  { name: 'Conversation', slug: 'conversation', description: 'Dialogues and speaking prompts.' },
];

/**
 * Adds published posts, in one `INSERT … SELECT generate_series`, shaped as posts.repository.ts writes them:
 * sanitised-looking HTML content (headings, paragraphs, a list), its plain text (`content_text`, what
 * `htmlToText` gives: tags out, whitespace collapsed), an excerpt of the text's first 160 characters cut at a
 * word, read time = ⌈text length ÷ 200⌉, a category (one post in ten has none), tags, the demo admin or
 * teacher as author, and distinct publication times over the last three years (newest first is then a
 * stable order). The generated `search` column and the indexes are PostgreSQL's work, as for a real insert.
 * Words are picked by `hashtext`, so the same seed gives the same posts.
 */
export const INSERT_POSTS_SQL = `
WITH words AS (SELECT (ord - 1)::int AS n, word FROM unnest($6::text[]) WITH ORDINALITY AS u(word, ord)),
     cats AS (SELECT array_agg(id ORDER BY slug) AS ids, count(*)::int AS n FROM categories),
     picks AS (
       SELECT g.i, s.s, string_agg(words.word, ' ' ORDER BY k.k) AS sentence
       FROM generate_series(1, $1::int) AS g(i)
       CROSS JOIN generate_series(1, 6) AS s(s)
       CROSS JOIN LATERAL generate_series(1, 18 + abs(hashtext(g.i || ':' || s.s)) % 24) AS k(k)
       JOIN words ON words.n = abs(hashtext(g.i || ':' || s.s || ':' || k.k)) % cardinality($6::text[])
       GROUP BY g.i, s.s
     ),
     shaped AS (
       SELECT p.i,
              ($7::text[])[1 + p.i % cardinality($7::text[])] AS topic,
              ($8::text[])[1 + (p.i / cardinality($7::text[])) % cardinality($8::text[])] AS angle,
              array_agg(upper(left(p.sentence, 1)) || substr(p.sentence, 2) ORDER BY p.s) AS s
       FROM picks p
       GROUP BY p.i
     ),
     rendered AS (
       SELECT shaped.i, shaped.topic,
              trim(BOTH '-' FROM regexp_replace(lower(shaped.topic), '[^a-z0-9]+', '-', 'g')) AS topic_slug,
              shaped.topic || ': ' || shaped.angle || ' (lesson ' || shaped.i || ')' AS title,
              format('<h2>%s</h2><p>%s.</p><p>%s.</p><ul><li>%s</li><li>%s</li></ul><h3>%s</h3><p>%s. %s.</p>',
                     shaped.topic, s[1], s[2], s[3], s[4], shaped.angle, s[5], s[6]) AS content,
              format('%s %s. %s. %s %s %s %s. %s.', shaped.topic, s[1], s[2], s[3], s[4], shaped.angle, s[5], s[6]) AS text
       FROM shaped
     )
INSERT INTO posts (slug, title, content, content_text, excerpt, category_id, status, tags, author_id, author_name,
                   published_at, created_at, updated_at, read_time, meta_description)
SELECT 'lesson-' || r.i || '-' || r.topic_slug,
       r.title,
       r.content,
       r.text,
       CASE WHEN length(r.text) <= 160 THEN r.text
            ELSE rtrim(substring(left(r.text, 160) FROM '^(.*) ')) || '…' END,
       CASE WHEN r.i % 10 = 0 THEN NULL ELSE cats.ids[1 + r.i % cats.n] END,
       'published',
       ARRAY[r.topic_slug, 'spanish'],
       CASE WHEN r.i % 3 = 0 THEN $4::uuid ELSE $2::uuid END,
       CASE WHEN r.i % 3 = 0 THEN $5 ELSE $3 END,
       now() - make_interval(mins => r.i * 157),
       now() - make_interval(mins => r.i * 157 + 60),
       now() - make_interval(mins => r.i * 157),
       ceil(length(r.text) / 200.0)::int,
       left(r.text, 150)
FROM rendered r, cats`;

export interface SeedResult {
  /** Published posts in the database after seeding. */
  posts: number;
  added: number;
  categories: number;
  seconds: number;
  /** A category slug and a search word the probes can use, chosen from what was seeded. */
  categorySlug: string;
  searchWord: string;
}

/**
 * Fills content's schema until it holds `total` published posts (the demo's lessons count), then VACUUM
 * ANALYZEs, so the planner sees 10,000 posts rather than the handful it saw at start.
 */
export async function seedPosts(databaseUrl: string, schema: string, total: number): Promise<SeedResult> {
  const started = performance.now();
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`SET search_path TO "${schema.replace(/"/g, '')}", public`);
    await client.query('BEGIN');
    for (const c of SEED_CATEGORIES) {
      await client.query(
        `INSERT INTO categories (name, slug, description) VALUES ($1, $2, $3) ON CONFLICT (slug) DO NOTHING`,
        [c.name, c.slug, c.description],
      );
    }
    const existing = await publishedCount(client);
    const toAdd = Math.max(0, total - existing);
    if (toAdd > 0) {
      const admin = demoAccount('admin');
      const teacher = demoAccount('teacher');
      await client.query(INSERT_POSTS_SQL, [
        toAdd,
        admin.id,
        admin.name,
        teacher.id,
        teacher.name,
        SEED_VOCABULARY,
        SEED_TOPICS,
        SEED_ANGLES,
      ]);
    }
    await client.query('COMMIT');
    // What autovacuum would do shortly after such an insert, done now so that it does not happen in the
    // middle of a measurement, and so that index-only scans see an all-visible table from the first round.
    await client.query('VACUUM (ANALYZE) posts');
    await client.query('VACUUM (ANALYZE) categories');
    const posts = await publishedCount(client);
    const categories = Number((await client.query('SELECT count(*)::int AS n FROM categories')).rows[0].n);
    return {
      posts,
      added: toAdd,
      categories,
      seconds: (performance.now() - started) / 1000,
      categorySlug: 'grammar',
      searchWord: 'subjunctive',
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

async function publishedCount(client: Client): Promise<number> {
  const { rows } = await client.query(`SELECT count(*)::int AS n FROM posts WHERE status = 'published'`);
  return Number(rows[0].n);
}

/**
 * What the generated district's people, schools and classes are called. The lists reach well beyond ASCII on
 * purpose (Nguyễn, Łucja, Çelik, Øyvind, Zoë, María José …): an importer, a search and a screen must take them.
 */

// prettier-ignore
export const GIVEN_NAMES: readonly string[] = [
  'Zoë', 'Łucja', 'Øyvind', 'María José', 'Chloé', 'José', 'Søren', 'Aoife', 'Siobhán', 'Björn', 'Mateo', 'Noé',
  'Inès', 'Jürgen', 'Amélie', 'Thảo', 'Minh', 'Đức', 'Ngọc', 'Ayşe', 'Emre', 'Çağla', 'İbrahim', 'Oğuz',
  'Małgorzata', 'Wojciech', 'Zofia', 'Krzysztof', 'Ángel', 'Sofía', 'Lucía', 'Nicolás', 'Jonas', 'Lena', 'Mia',
  'Noah', 'Liam', 'Olivia', 'Emma', 'Aiden', 'Priya', 'Arjun', 'Aarav', 'Saanvi', 'Kwame', 'Ama', 'Chidi', 'Amara',
  'Yuki', 'Haruto', 'Sakura', 'Wei', 'Mei', 'Hana', 'Jae-won', 'Seo-yeon', 'Omar', 'Layla', 'Yusuf', 'Fatima',
  'Mehmet', 'Elif', 'Dmitri', 'Anastasia', 'Ivan', 'Olga', 'Sigrún', 'Þór', 'Ægir', 'Aleksandra', 'François',
  'Gaëlle', 'Renée', 'Joaquín', 'Valentina', 'Thiago', 'João', 'Conceição', 'Kai', 'Leilani', 'Tane', 'Aroha',
  'Nomvula', 'Thabo', 'Sipho', 'Grace', 'Henry', 'Isla', 'Oscar', 'Ruby', 'Leo', 'Ava', 'Ethan', 'Maya', 'Lucas',
];

// prettier-ignore
export const FAMILY_NAMES: readonly string[] = [
  'Nguyễn', 'Trần', 'Lê', 'Phạm', 'Çelik', 'Yılmaz', 'Öztürk', 'Kaya', 'Şahin', 'Kowalski', 'Wiśniewska',
  'Łukaszewicz', 'Nowak', 'Müller', 'Schäfer', 'Weiß', 'Fischer', 'García', 'Rodríguez', 'Martínez', 'Hernández',
  'López', 'González', 'Pérez', 'Sánchez', 'Núñez', 'Muñoz', 'Ibáñez', 'Dubois', 'Lefèvre', 'Girard', 'Bonnet',
  "O'Brien", 'Murphy', 'Kelly', 'Byrne', 'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Miller', 'Davis',
  'Wilson', 'Anderson', 'Thomas', 'Moore', 'Jackson', 'Martin', 'Lee', 'Kim', 'Park', 'Choi', 'Wang', 'Li',
  'Zhang', 'Liu', 'Chen', 'Tanaka', 'Suzuki', 'Sato', 'Patel', 'Sharma', 'Singh', 'Gupta', 'Okafor', 'Mensah',
  'Adeyemi', 'Diallo', 'Haddad', 'Khalil', 'Ivanova', 'Petrov', 'Sørensen', 'Håkansson', 'Ødegaard',
  'Jóhannsdóttir', 'Þórsdóttir', 'van der Berg', 'da Silva', 'Gonçalves', 'Nakamura', 'Kahananui', 'Ngata',
];

// prettier-ignore
export const SCHOOL_PLACES: readonly string[] = [
  'Riverside', 'Kraków', 'Lakeview', 'Zürich', 'Malmö', 'São Paulo', 'Hillcrest', 'Łódź', 'Ñuñoa', 'Tromsø',
  'Çanakkale', 'Hà Nội', 'Reykjavík', 'Genève', 'Düsseldorf', 'Córdoba', 'Plzeň', 'Ålesund', 'Brașov', 'Győr',
  'Bogotá', 'Mérida', 'Oakwood', 'Maplewood', 'Cedar Park', 'Pinecrest', 'Fairview', 'Brookside', 'Westfield',
  'Eastgate', 'Northridge', 'Southport', 'Willowbrook', 'Aspen Grove', 'Harbourview', 'Stonebridge',
];

export const SCHOOL_KINDS: readonly string[] = [
  'High School',
  'Middle School',
  'Elementary School',
  'Academy',
];

export interface Subject {
  title: string;
  code: string;
}

export const SUBJECTS: readonly Subject[] = [
  { title: 'Mathematics', code: 'MATH' },
  { title: 'English', code: 'ENG' },
  { title: 'Science', code: 'SCI' },
  { title: 'History', code: 'HIST' },
  { title: 'Geography', code: 'GEO' },
  { title: 'Art', code: 'ART' },
  { title: 'Music', code: 'MUS' },
  { title: 'Physical Education', code: 'PE' },
  { title: 'Français', code: 'FR' },
  { title: 'Español', code: 'ES' },
  { title: 'Computer Science', code: 'CS' },
  { title: 'Biology', code: 'BIO' },
];

/** Letters NFKD does not decompose, spelled the way a school's username convention would. */
// prettier-ignore
const TRANSLITERATION: Record<string, string> = {
  ø: 'o', Ø: 'O', ł: 'l', Ł: 'L', æ: 'ae', Æ: 'Ae', œ: 'oe', Œ: 'Oe', ß: 'ss', þ: 'th', Þ: 'Th', ð: 'd', Ð: 'D',
  đ: 'd', Đ: 'D', ı: 'i',
};

/** identity keeps the first 30 characters of a username it is given (users/username.ts); ours fit whole. */
const MAX_USERNAME_LENGTH = 30;
/** Room left for the counter that tells people of the same name apart (given.family123). */
const MAX_USERNAME_BASE_LENGTH = MAX_USERNAME_LENGTH - 4;

/**
 * `given.family` in the site's username alphabet (letters, digits, dots, hyphens, underscores; 30 at most):
 * accents folded, other letters transliterated, spaces become dots, apostrophes dropped.
 */
export function usernameFor(givenName: string, familyName: string): string {
  const base = `${givenName} ${familyName}`
    .replace(/[\u0080-\uffff]/g, (ch) => TRANSLITERATION[ch] ?? ch)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, '.')
    .replace(/[^a-z0-9._-]/g, '')
    .replace(/[._-]{2,}/g, '.')
    .replace(/^[._-]+|[._-]+$/g, '')
    .slice(0, MAX_USERNAME_BASE_LENGTH)
    .replace(/[._-]+$/, '');
  return base || 'user';
}

/** The nth person (0-based) to want `base`: the first gets it plain, the next ones base2, base3 … */
export function numberedUsername(base: string, nth: number): string {
  return nth === 0 ? base : `${base}${nth + 1}`;
}

import type { FuzzRequest, Operation } from './request-arbitrary';

export const PERSONAS = ['anonymous', 'pending', 'student', 'teacher', 'admin', 'suspendedAdmin'] as const;
export type Persona = (typeof PERSONAS)[number];

/**
 * The status a persona is refused with on a route, from the document's x-access (the authz matrices agree; see
 * the spec's cross-check), or undefined when the persona may call it. A suspended administrator counts as
 * neither administrator nor teacher (ADR 0011); a pending student is signed in.
 */
export function refusal(access: string, persona: Persona): 401 | 403 | undefined {
  if (access === 'public') return undefined;
  if (persona === 'anonymous') return 401;
  switch (access) {
    case 'signed-in':
      return undefined;
    // The district's reads (issue #36: schools, classes): any approved account; a suspended one is not approved.
    case 'approved':
      return persona === 'pending' || persona === 'suspendedAdmin' ? 403 : undefined;
    case 'teacher or admin':
      return persona === 'teacher' || persona === 'admin' ? undefined : 403;
    case 'admin':
      return persona === 'admin' ? undefined : 403;
    // Chat's room management (issue #36): a district administrator, or a teacher who manages a class in the site's
    // roster (so a teacher may or may not be let in); an unapproved account or a student never manages one.
    case 'admin or class manager':
      return persona === 'admin' || persona === 'teacher' ? undefined : 403;
    // identity's people management and user search (issue #36): a district administrator, or a school administrator
    // (an approved teacher-role account with the roster's administrator role at a school) for their school's people.
    case 'admin or school administrator':
      return persona === 'admin' || persona === 'teacher' ? undefined : 403;
    default:
      throw new Error(`unknown x-access "${access}"`);
  }
}

/** What must never reach a caller in an error body: stack frames, file paths, SQL, driver and framework internals. */
const LEAKS: ReadonlyArray<readonly [string, RegExp]> = [
  ['stack frame', /\bat (?:async )?[\w$.<>]+ \(|\bat [^\s()]+:\d+:\d+/],
  ['file path', /(?:\/work\/|\/home\/|\/usr\/|\/tmp\/|node_modules|[\w-]+\.(?:ts|js|mjs|cjs):\d+|\/src\/)/],
  [
    'SQL',
    /\b(?:SELECT\s.+\sFROM|INSERT\s+INTO|UPDATE\s+\S+\s+SET|DELETE\s+FROM)\b|syntax error at or near|violates (?:unique|foreign key|not-null|check) constraint|duplicate key value|relation "[^"]+" does not exist|invalid input syntax for type|\bPostgres|\bpg_/i,
  ],
  [
    'internal name',
    /\b(?:QueryFailedError|EntityNotFound\w*|TypeORM\w*|ZodError|TypeError|ReferenceError|SyntaxError|RangeError|Nest\w*Exception|\w+Exception\b|\w+Controller\b|\w+Service\b|\w+Module\b|\w+Repository\b|\w+Entity\b|FastifyError|FST_\w+|ERR_[A-Z_]+|ECONNREFUSED|undici|ioredis|NatsError)/,
  ],
];

/** The names of the leaks in one error body (empty when clean). */
export function leaksIn(body: string): string[] {
  return LEAKS.filter(([, pattern]) => pattern.test(body)).map(([name]) => name);
}

/** Refusals of the request's size (body, URL, headers), made by the gateway before any route code. */
const TOO_LARGE = new Set([413, 414, 431]);

export interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/** Every problem with one answer; empty when it is acceptable. */
export function problemsWith(
  op: Operation,
  persona: Persona,
  request: FuzzRequest,
  answer: Answer,
  documented: ReadonlySet<string> = new Set(),
): string[] {
  const problems: string[] = [];
  // A 5xx the authz matrix itself expects (501 from the OpenID routes on a site with no provider) is the
  // route's documented answer, a browser page, not a failure; any other is.
  const expected5xx = documented.has(`${op.method} ${op.template} ${answer.status}`);
  if (answer.status >= 500 && !expected5xx) problems.push(`answered ${answer.status}`);
  if (answer.status >= 400 && !expected5xx) {
    const leaks = leaksIn(answer.text);
    if (leaks.length) problems.push(`error body leaks ${leaks.join(', ')}`);
  }
  if (answer.status >= 400 && answer.status < 500) {
    let message: unknown;
    try {
      message = (JSON.parse(answer.text) as { message?: unknown }).message;
    } catch {
      problems.push(`${answer.status} body is not JSON`);
    }
    if (message !== undefined && typeof message !== 'string')
      problems.push(`${answer.status} body has no string message`);
    else if (message === undefined && !problems.length) problems.push(`${answer.status} body has no message`);
    if (!/^application\/(?:problem\+)?json\b/.test(answer.contentType))
      problems.push(`${answer.status} content-type is ${answer.contentType || 'missing'}`);
  }
  const refused = refusal(op.access, persona);
  if (refused !== undefined && answer.status !== refused) {
    // Refused callers get the refusal; the only other acceptable answers are refusals that come before any
    // route code (the gateway's size limits and origin check, a path that no longer names this route, a request
    // line or body the HTTP layer cannot parse).
    const { badOrigin, pathEscapes, urlMalformed, bodyUnparsable } = request.flags;
    const earlier =
      TOO_LARGE.has(answer.status) ||
      (badOrigin && answer.status === 403) ||
      (pathEscapes && [400, 401, 403, 404].includes(answer.status)) ||
      (urlMalformed && answer.status === 400) ||
      (bodyUnparsable && (answer.status === 400 || answer.status === 415));
    if (!earlier) problems.push(`refused caller got ${answer.status}, not ${refused}`);
  }
  return problems;
}

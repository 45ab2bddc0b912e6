/**
 * `npm run district:generate -- --schools 50 --teachers 2000 --students 40000 --seed 1 --out district.zip`
 *
 * Options: --schools --teachers --students --seed --classes-per-student --class-size --domain --school-year
 * --password <p> (every person's users.csv password) --errors (append the known bad rows) --delta-percent <p>
 * (a delta zip against the same options' bulk) --store (no deflate) --demo (the demo district's options; the others
 * still apply on top) --out <file.zip> (default district.zip). Prints the counts, the time and the peak RSS as JSON.
 */
import { parseArgs } from 'node:util';
import { demoDistrictOptions } from './demo-district';
import { generateDistrict, type DistrictOptions } from './generate-district';

const { values } = parseArgs({
  options: {
    schools: { type: 'string' },
    teachers: { type: 'string' },
    students: { type: 'string' },
    seed: { type: 'string' },
    'classes-per-student': { type: 'string' },
    'class-size': { type: 'string' },
    domain: { type: 'string' },
    'school-year': { type: 'string' },
    password: { type: 'string' },
    errors: { type: 'boolean' },
    'delta-percent': { type: 'string' },
    store: { type: 'boolean' },
    demo: { type: 'boolean' },
    out: { type: 'string' },
  },
  strict: true,
});

function whole(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n)) throw new Error(`--${name} must be a number`);
  return n;
}

const given: DistrictOptions = {
  schools: whole('schools', values.schools),
  teachers: whole('teachers', values.teachers),
  students: whole('students', values.students),
  seed: values.seed === undefined ? undefined : /^\d+$/.test(values.seed) ? Number(values.seed) : values.seed,
  classesPerStudent: whole('classes-per-student', values['classes-per-student']),
  classSize: whole('class-size', values['class-size']),
  domain: values.domain,
  schoolYear: whole('school-year', values['school-year']),
  password: values.password,
  errors: values.errors,
  deltaPercent: whole('delta-percent', values['delta-percent']),
  compress: values.store ? false : undefined,
};
const options: DistrictOptions = {
  ...(values.demo ? demoDistrictOptions() : {}),
  ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)),
};

async function main(): Promise<void> {
  const started = process.hrtime.bigint();
  let peakRss = process.memoryUsage.rss();
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 50);
  const result = await generateDistrict({ ...options, out: values.out ?? 'district.zip' });
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage.rss(), process.resourceUsage().maxRSS * 1024);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  console.log(
    JSON.stringify(
      { ...result, seconds: Number(seconds.toFixed(2)), peakRssMB: Math.round(peakRss / 1024 / 1024) },
      null,
      2,
    ),
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});

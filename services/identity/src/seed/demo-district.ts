import { join } from 'node:path';
import type { DemoAccountKey } from '@district/contracts';

/**
 * The demo district's roster, a OneRoster 1.2 CSV zip written by nest-common's district generator
 * (`npm run district:generate -- --demo --out services/identity/src/seed/demo-district.zip`; demo-district.spec.ts
 * checks the file is exactly that). Three schools, twelve classes, 300 pupils; the demo teacher and students are in
 * it as the seed creates them, the administrator and the pending account are not.
 */
export const DEMO_DISTRICT_ZIP = join(__dirname, 'demo-district.zip');

/** The users.csv sourcedId of a rostered demo account (the generator's demoSourcedId). */
export function demoRosterSourcedId(key: DemoAccountKey): string {
  return `demo-${key}`;
}

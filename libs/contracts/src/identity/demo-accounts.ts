import type { Role } from './schemas';

export type DemoAccountKey = 'admin' | 'teacher' | 'student' | 'student2' | 'pending';

export interface DemoAccount {
  key: DemoAccountKey;
  /** Fixed, so other services can seed demo content that refers to these people without asking identity. */
  id: string;
  name: string;
  username: string;
  email: string;
  role: Role;
  approved: boolean;
  isAdmin: boolean;
}

/**
 * The demo district's people (standalone default, DEMO=true). identity seeds them; quick-login signs in only
 * as one of them; the launcher prints them.
 */
export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  {
    key: 'admin',
    id: '00000000-0000-4000-8000-00000000d001',
    name: 'Alex Admin',
    username: 'alex.admin',
    email: 'admin@demo.school',
    role: 'teacher',
    approved: true,
    isAdmin: true,
  },
  {
    key: 'teacher',
    id: '00000000-0000-4000-8000-00000000d002',
    name: 'Taylor Teacher',
    username: 'taylor.teacher',
    email: 'teacher@demo.school',
    role: 'teacher',
    approved: true,
    isAdmin: false,
  },
  {
    key: 'student',
    id: '00000000-0000-4000-8000-00000000d003',
    name: 'Sam Student',
    username: 'sam.student',
    email: 'student@demo.school',
    role: 'student',
    approved: true,
    isAdmin: false,
  },
  {
    key: 'student2',
    id: '00000000-0000-4000-8000-00000000d004',
    name: 'Jordan Student',
    username: 'jordan.student',
    email: 'student2@demo.school',
    role: 'student',
    approved: true,
    isAdmin: false,
  },
  {
    key: 'pending',
    id: '00000000-0000-4000-8000-00000000d005',
    name: 'Pat Pending',
    username: 'pat.pending',
    email: 'pending@demo.school',
    role: 'student',
    approved: false,
    isAdmin: false,
  },
];

export function demoAccount(key: DemoAccountKey): DemoAccount {
  const account = DEMO_ACCOUNTS.find((a) => a.key === key);
  if (!account) throw new Error(`Unknown demo account: ${key}`);
  return account;
}

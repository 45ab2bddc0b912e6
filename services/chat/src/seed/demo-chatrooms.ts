import { demoAccount } from '@district/contracts';
import type { DemoChatroom } from '../chatrooms/chatrooms.repository';

/**
 * The demo district's room: active, with the demo student invited (the teacher and the admin see every active
 * room). The second demo student is not invited, so the demo shows both views. A fixed id, so seeding is
 * idempotent and an admin's edits survive restarts.
 */
export const DEMO_CHATROOMS: readonly DemoChatroom[] = [
  {
    id: '00000000-0000-4000-8000-0000000f0001',
    name: 'Spanish Practice',
    description: 'Practise everyday Spanish with your class: greetings, questions and short conversations.',
    invitedUserIds: [demoAccount('student').id],
    isActive: true,
  },
];

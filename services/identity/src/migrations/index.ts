import { CreateUsers1732320000000 } from './1732320000000-create-users.migration';

/** Every migration of identity, in order (the platform adds the outbox and inbox tables before them). */
export const identityMigrations = [CreateUsers1732320000000];

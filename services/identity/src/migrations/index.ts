import { CreateUsers1732320000000 } from './1732320000000-create-users.migration';
import { CreateRevokedSessions1733000000000 } from './1733000000000-create-revoked-sessions.migration';
import { CreateAuditLog1733500000000 } from './1733500000000-create-audit-log.migration';
import { CreateRoster1733800000000 } from './1733800000000-create-roster.migration';
import { CreateRosterImportRows1733800000001 } from './1733800000001-create-roster-import-rows.migration';
import { CreateRosterSnapshotsOwed1733900000000 } from './1733900000000-create-roster-snapshots-owed.migration';
import { CreateUsersShortSearch1734000000000 } from './1734000000000-create-users-short-search.migration';

/** Every migration of identity, in order (the platform adds the outbox and inbox tables before them). */
export const identityMigrations = [
  CreateUsers1732320000000,
  CreateRevokedSessions1733000000000,
  CreateAuditLog1733500000000,
  CreateRoster1733800000000,
  CreateRosterImportRows1733800000001,
  CreateRosterSnapshotsOwed1733900000000,
  CreateUsersShortSearch1734000000000,
];

import multipart from '@fastify/multipart';
import { ROSTER_ZIP_MAX_BYTES } from '@district/contracts';
import { serviceRoute, type ServiceDefinition } from '@district/nest-common';
import { IDENTITY_SERVICE_NAME, IdentityModule, type IdentityModuleOptions } from './identity.module';

export { IdentityModule, IDENTITY_SERVICE_NAME, type IdentityModuleOptions } from './identity.module';
export {
  RosterImportService,
  ROSTER_SYSTEM_ACTOR,
  type ImportFileOptions,
} from './roster/roster-import.service';
export { RosterRefusedError } from './roster/roster.errors';
export {
  identityEnvSchema,
  loadIdentityConfig,
  DEFAULT_DEMO_PASSWORD,
  type IdentityConfig,
} from './identity.config';

/** identity in the launcher's target registry. Tests pass a throwaway schema. */
export function defineIdentityService(options: IdentityModuleOptions = {}): ServiceDefinition {
  return {
    name: IDENTITY_SERVICE_NAME,
    dependsOn: [],
    defaultPort: 4101,
    // Sign-in, sessions, users and admin user management.
    routes: [
      serviceRoute('/api/auth', 'tree', '/api/auth/login'),
      serviceRoute('/api/users', 'tree', '/api/users/3f2a/approval'),
      serviceRoute('/api/admin/users', 'tree', '/api/admin/users/3f2a/password'),
      serviceRoute('/api/admin/audit-log', 'exact', '/api/admin/audit-log'),
      // The district's roster (ADR 0042).
      // The roster upload takes the gateway's roster body limit (ROSTER_ZIP_MAX_BYTES and the multipart envelope);
      // first match wins, so it comes before its tree.
      serviceRoute('/api/admin/roster/imports', 'exact', '/api/admin/roster/imports', 'roster'),
      serviceRoute('/api/admin/roster', 'tree', '/api/admin/roster/imports/3f2a'),
      serviceRoute('/api/schools', 'tree', '/api/schools'),
      serviceRoute('/api/classes', 'tree', '/api/classes/3f2a'),
    ],
    rootModule: (runtime) => IdentityModule.forRoot(runtime, options),
    // Multipart parsing for the roster upload (POST /api/admin/roster/imports), streamed to disk; the route checks
    // the limit again.
    configureApp: async (app) => {
      await app.register(multipart, {
        limits: { fileSize: ROSTER_ZIP_MAX_BYTES, files: 1, fields: 20, parts: 25 },
      });
    },
  };
}

export const identityService: ServiceDefinition = defineIdentityService();

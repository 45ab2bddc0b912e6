import { Module, type DynamicModule } from '@nestjs/common';
import { PlatformModule, type PlatformRuntime } from '@district/nest-common';
import { AdminModule } from './admin/admin.module';
import { AuthModule } from './auth/auth.module';
import { DistrictModule } from './district/district.module';
import { identityConfig } from './identity.config';
import { identityMigrations } from './migrations';
import { ExternalIdentityEntity } from './oidc/external-identity.entity';
import { OidcModule } from './oidc/oidc.module';
import { RosterModule } from './roster/roster.module';
import { SeedModule } from './seed/seed.module';
import { UserEntity } from './users/user.entity';
import { UsersModule } from './users/users.module';

export const IDENTITY_SERVICE_NAME = 'identity';

export interface IdentityModuleOptions {
  /** Database schema; defaults to the service name (tests use a throwaway one). */
  schema?: string;
}

/** identity's root module: the platform (database, bus, guard…) plus its domains. Config is checked here, at start. */
@Module({})
export class IdentityModule {
  static forRoot(runtime: PlatformRuntime, options: IdentityModuleOptions = {}): DynamicModule {
    const config = identityConfig.provide(runtime);
    const schema = options.schema ?? IDENTITY_SERVICE_NAME;
    return {
      module: IdentityModule,
      // Global so the domain modules see IDENTITY_CONFIG without importing their parent.
      global: true,
      imports: [
        PlatformModule.forService({
          name: IDENTITY_SERVICE_NAME,
          runtime,
          schema,
          entities: [UserEntity, ExternalIdentityEntity],
          migrations: identityMigrations,
        }),
        UsersModule,
        AuthModule,
        OidcModule,
        SeedModule,
        AdminModule,
        RosterModule,
        DistrictModule,
      ],
      providers: [config],
      exports: [config.provide],
    };
  }
}

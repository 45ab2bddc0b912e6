import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { UsersModule } from '../users/users.module';
import { ExternalIdentitiesRepository } from './external-identities.repository';
import { ExternalIdentityEntity } from './external-identity.entity';
import { OidcAccountsService } from './oidc-accounts.service';
import { OidcClient } from './oidc-client.service';
import { OidcController } from './oidc.controller';
import { OidcSignInService } from './oidc-sign-in.service';
import { SignInMethodsController } from './sign-in-methods.controller';

@Module({
  imports: [TypeOrmModule.forFeature([ExternalIdentityEntity]), UsersModule, AuthModule],
  controllers: [OidcController, SignInMethodsController],
  providers: [OidcClient, OidcAccountsService, OidcSignInService, ExternalIdentitiesRepository],
})
export class OidcModule {}

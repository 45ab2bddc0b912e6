import { Controller, Get, Header, Inject } from '@nestjs/common';
import type { SignInMethods } from '@district/contracts';
import { Public } from '@district/nest-common';
import { OidcSignInService } from './oidc-sign-in.service';

/**
 * Which ways to sign in this site offers, so the web app sends a visitor to the third-party sign-in only where a
 * provider is configured, and to the email dialog elsewhere (issue #34, ADR 0034). It changes only with the
 * configuration (a restart), hence the short public cache.
 */
@Controller('api/auth/sign-in-methods')
@Public()
export class SignInMethodsController {
  constructor(@Inject(OidcSignInService) private readonly signIn: OidcSignInService) {}

  @Get()
  @Header('Cache-Control', 'public, max-age=300')
  methods(): SignInMethods {
    return { password: true, thirdParty: this.signIn.enabled };
  }
}

import { Inject, Injectable, NotFoundException, type CanActivate } from '@nestjs/common';
import { IdentityMessages } from '@district/contracts';
import { PLATFORM_RUNTIME, type PlatformRuntime } from '@district/nest-common';

/** The demo shortcuts do not exist on a site without demo accounts. A guard runs before body validation, so every request gets the 404. */
@Injectable()
export class DemoOnlyGuard implements CanActivate {
  constructor(@Inject(PLATFORM_RUNTIME) private readonly runtime: PlatformRuntime) {}

  canActivate(): boolean {
    if (!this.runtime.demo) throw new NotFoundException(IdentityMessages.quickLoginDisabled);
    return true;
  }
}

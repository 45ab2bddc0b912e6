import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { EPHEMERAL_STORE, type EphemeralStore } from '@district/nest-common';
import type { UserEntity } from '../users/user.entity';
import { OidcAccountsService } from './oidc-accounts.service';
import { OidcClient, type PendingAuthorization } from './oidc-client.service';
import { OidcFailedError } from './oidc.errors';

/** How long a browser may take at the provider. */
export const PENDING_SIGN_IN_SECONDS = 10 * 60;
const pendingKey = (id: string) => `identity:oidc:pending:${id}`;

/**
 * One third-party sign-in from start to finish. The state, nonce and PKCE verifier wait in the shared store
 * (any replica may receive the callback) under a random id that only this browser holds, in a cookie; each
 * is usable once.
 */
@Injectable()
export class OidcSignInService {
  constructor(
    @Inject(OidcClient) private readonly client: OidcClient,
    @Inject(OidcAccountsService) private readonly accounts: OidcAccountsService,
    @Inject(EPHEMERAL_STORE) private readonly store: EphemeralStore,
  ) {}

  get enabled(): boolean {
    return this.client.enabled;
  }

  async begin(): Promise<{ redirectTo: URL; pendingId: string }> {
    const { url, pending } = await this.client.authorizationUrl();
    const pendingId = randomBytes(32).toString('base64url');
    await this.store.set(pendingKey(pendingId), JSON.stringify(pending), PENDING_SIGN_IN_SECONDS * 1000);
    return { redirectTo: url, pendingId };
  }

  async finish(pendingId: string | undefined, callbackSearch: string): Promise<UserEntity> {
    const pending = pendingId ? await this.take(pendingId) : null;
    if (!pending) throw new OidcFailedError();
    const profile = await this.client.complete(callbackSearch, pending);
    return this.accounts.findOrCreate(profile);
  }

  private async take(pendingId: string): Promise<PendingAuthorization | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(pendingId)) return null;
    const key = pendingKey(pendingId);
    const stored = await this.store.get(key);
    if (!stored) return null;
    await this.store.del(key);
    return JSON.parse(stored) as PendingAuthorization;
  }
}

import { Inject, Injectable } from '@nestjs/common';
import * as client from 'openid-client';
import { PLATFORM_LOGGER, PLATFORM_RUNTIME, type Logger, type PlatformRuntime } from '@district/nest-common';
import { IDENTITY_CONFIG, type IdentityConfig, type OidcSettings } from '../identity.config';
import { OidcFailedError, OidcNotConfiguredError, OidcUnavailableError } from './oidc.errors';

export const OIDC_CALLBACK_PATH = '/api/auth/google/callback';
const SCOPE = 'openid email profile';
const DISCOVERY_TIMEOUT_SECONDS = 10;

/** What identity keeps between sending the browser to the provider and its return. */
export interface PendingAuthorization {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The provider's account, as far as identity cares. */
export interface ProviderProfile {
  issuer: string;
  subject: string;
  email?: string;
  emailVerified: boolean;
  name?: string;
  givenName?: string;
  familyName?: string;
  preferredUsername?: string;
}

/**
 * The OpenID Connect relying party: authorisation code flow with PKCE, state and nonce (openid-client).
 * The provider's metadata is discovered on first use, not at start, so a provider outage never stops the
 * service from starting; a failed discovery is retried on the next sign-in.
 */
@Injectable()
export class OidcClient {
  private configuration?: Promise<client.Configuration>;

  constructor(
    @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig,
    @Inject(PLATFORM_RUNTIME) private readonly runtime: PlatformRuntime,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {}

  get enabled(): boolean {
    return this.config.oidc !== null;
  }

  get redirectUri(): string {
    return `${this.runtime.publicUrl.replace(/\/+$/, '')}${OIDC_CALLBACK_PATH}`;
  }

  async authorizationUrl(): Promise<{ url: URL; pending: PendingAuthorization }> {
    const configuration = await this.discover();
    const pending = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      codeVerifier: client.randomPKCECodeVerifier(),
    };
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUri,
      scope: SCOPE,
      code_challenge: await client.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    return { url, pending };
  }

  /** Checks the provider's answer (state, nonce, PKCE, ID token) and returns who signed in. */
  async complete(callbackSearch: string, pending: PendingAuthorization): Promise<ProviderProfile> {
    const configuration = await this.discover();
    const currentUrl = new URL(`${this.redirectUri}${callbackSearch}`);
    try {
      const tokens = await client.authorizationCodeGrant(configuration, currentUrl, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const idToken = tokens.claims();
      if (!idToken) throw new Error('no ID token');
      // Many providers put profile claims only in the userinfo answer, not in the ID token.
      const claims =
        idToken.email === undefined && configuration.serverMetadata().userinfo_endpoint
          ? { ...(await client.fetchUserInfo(configuration, tokens.access_token, idToken.sub)), ...idToken }
          : idToken;
      return {
        issuer: idToken.iss,
        subject: idToken.sub,
        email: typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : undefined,
        emailVerified: claims.email_verified === true,
        name: stringClaim(claims.name),
        givenName: stringClaim(claims.given_name),
        familyName: stringClaim(claims.family_name),
        preferredUsername: stringClaim(claims.preferred_username),
      };
    } catch (error) {
      this.logger.warn({ err: error }, 'OpenID sign-in rejected');
      throw new OidcFailedError();
    }
  }

  private discover(): Promise<client.Configuration> {
    const settings = this.config.oidc;
    if (!settings) return Promise.reject(new OidcNotConfiguredError());
    this.configuration ??= discover(settings).catch((error: unknown) => {
      this.configuration = undefined;
      this.logger.error({ err: error, issuer: settings.issuer.href }, 'OpenID provider discovery failed');
      throw new OidcUnavailableError();
    });
    return this.configuration;
  }
}

function discover(settings: OidcSettings): Promise<client.Configuration> {
  return client.discovery(
    settings.issuer,
    settings.clientId,
    settings.clientSecret,
    // Without a secret the client is public and PKCE alone protects the code.
    settings.clientSecret ? undefined : client.None(),
    {
      timeout: DISCOVERY_TIMEOUT_SECONDS,
      execute: settings.allowInsecureIssuer ? [client.allowInsecureRequests] : [],
    },
  );
}

function stringClaim(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpClient, TestResponse } from '@district/nest-common/testing';

export interface ProviderAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
  given_name?: string;
  family_name?: string;
  preferred_username?: string;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Accounts the provider knows, by subject; tests add to it. */
  accounts: Map<string, ProviderAccount>;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (oidc-provider) on a loopback port, with its development login and consent
 * screens; any account in `accounts` can sign in by its subject.
 */
export async function startOidcProvider(redirectUri: string): Promise<TestOidcProvider> {
  const accounts = new Map<string, ProviderAccount>();
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'district-test';
  const clientSecret = 'district-test-secret-that-is-long-enough';
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });

  // Loaded here rather than at the top, so a test's console spies are in place for its start-up notices.
  const { default: Provider } = await import('oidc-provider');
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name', 'preferred_username'],
    },
    findAccount: async (_ctx, sub) => {
      const account = accounts.get(sub);
      return account ? { accountId: sub, claims: async () => ({ sub, ...account }) } : undefined;
    },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    cookies: { keys: ['oidc-test-cookie-key'] },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
    },
    jwks: { keys: [{ ...signingKey, kid: 'test', use: 'sig', alg: 'RS256' }] },
  });
  server.on('request', provider.callback());

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    close: () =>
      new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}

/**
 * Plays the person at the provider's development screens: signs in as `subject`, then gives consent,
 * until the provider sends the browser back to the site (the first redirect that `isBack` accepts).
 */
export async function signInAtProvider(
  browser: HttpClient,
  authorizationUrl: string,
  subject: string,
  isBack: (url: URL) => boolean,
): Promise<TestResponse & { url: string }> {
  let page = await browser.navigate(authorizationUrl, { stopAt: isBack });
  for (let step = 0; step < 4 && page.status === 200; step++) {
    const action = /<form[^>]*action="([^"]+)"/.exec(page.text)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(page.text)?.[1];
    if (!action || !prompt) throw new Error(`unexpected provider page: ${page.text.slice(0, 300)}`);
    const form: Record<string, string> =
      prompt === 'login' ? { prompt, login: subject, password: 'any' } : { prompt };
    page = await browser.navigate(new URL(action, page.url).href, { method: 'POST', form, stopAt: isBack });
  }
  return page;
}

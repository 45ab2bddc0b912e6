import YAML from 'yaml';

/** A values file's `secrets` block with every value the chart requires (placeholders, not real keys). */
export const TEST_CHART_SECRETS_YAML = YAML.stringify({
  secrets: {
    databaseUrl: 'postgres://district:pw@postgres:5432/district',
    natsUrl: 'nats://nats:4222',
    redisUrl: 'redis://redis:6379',
    authPublicKey: '-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----\n',
    authPrivateKey: '-----BEGIN PRIVATE KEY-----\nMIGH\n-----END PRIVATE KEY-----\n',
    adminEmail: 'admin@district.example',
    adminPassword: 'a-test-password',
  },
});

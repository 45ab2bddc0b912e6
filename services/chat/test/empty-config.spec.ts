import { ConfigError } from '@district/nest-common';
import { LIVE_CONFIG, chatConfig, type LiveConfig } from '../src/live/live.config';
import { startChat, type ChatTestApp } from './support/chat-app';

/**
 * An empty variable counts as unset (ADR 0038): compose and Helm pass `CHAT_PING_MS=` for a value nobody set, and
 * that used to stop the start with "Too small: expected number to be >=100".
 */
describe('chat with its variables set empty', () => {
  let app: ChatTestApp | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('starts with CHAT_PING_MS= and pings at the default period', async () => {
    app = await startChat({ env: { CHAT_PING_MS: '' } });
    const config = app.service.app.get<LiveConfig>(LIVE_CONFIG);
    expect(config.CHAT_PING_MS).toBe(30_000);
  });

  it('starts with every chat variable empty, with the same settings as none set', async () => {
    const empty = Object.fromEntries(Object.keys(chatConfig.shape).map((key) => [key, '']));
    app = await startChat({ env: empty });
    expect(app.service.app.get<LiveConfig>(LIVE_CONFIG)).toEqual(chatConfig.load({}));
  });

  it('still refuses a value out of range, naming the variable and the bound', async () => {
    const error = await startChat({ env: { CHAT_PING_MS: '5' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual(['CHAT_PING_MS: must be at least 100 (got "5")']);
  });
});

import type { Client } from 'pg';

/**
 * The SQL of the public list's change notifications: the triggers of migration 1732800000000 NOTIFY the schema's
 * channel, and the listener's own connection subscribes to it here.
 */
export const PublicListNotifications = {
  /** Subscribes `client` (a dedicated connection, not the pool's) to `channel`. */
  async listen(client: Client, channel: string): Promise<void> {
    await client.query(`LISTEN "${channel}"`);
  },
};

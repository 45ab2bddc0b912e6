import { Registry } from 'prom-client';
import { registerLiveMetrics } from '../../src/live/live-metrics';

/** The value of a metric without labels in the registry's text exposition. */
async function scrape(registry: Registry): Promise<Record<string, number>> {
  const text = await registry.metrics();
  const values: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const m = /^(chat_[a-z_]+) (\d+(?:\.\d+)?)$/.exec(line);
    if (m) values[m[1]] = Number(m[2]);
  }
  return values;
}

describe('registerLiveMetrics', () => {
  it('reads the hub’s counts when scraped, and reports a counter’s total once, not added up per scrape', async () => {
    const registry = new Registry();
    const counts = { connections: 3, rooms: 2, deliveries: 5, messages: 1 };
    let reads = 0;
    registerLiveMetrics(registry, {
      connections: () => {
        reads += 1;
        return counts.connections;
      },
      rooms: () => counts.rooms,
      deliveries: () => counts.deliveries,
      messages: () => counts.messages,
    });
    expect(reads).toBe(0);
    expect(await scrape(registry)).toEqual({
      chat_connections: 3,
      chat_rooms_active: 2,
      chat_deliveries_total: 5,
      chat_messages_total: 1,
    });
    counts.connections = 1;
    counts.rooms = 0;
    counts.deliveries = 7;
    counts.messages = 4;
    expect(await scrape(registry)).toEqual({
      chat_connections: 1,
      chat_rooms_active: 0,
      chat_deliveries_total: 7,
      chat_messages_total: 4,
    });
    expect(reads).toBe(2);
    const text = await registry.metrics();
    expect(text).toContain('# TYPE chat_connections gauge');
    expect(text).toContain('# TYPE chat_deliveries_total counter');
    expect(text).toContain('# HELP chat_messages_total Chat messages accepted from sockets on this replica');
  });
});

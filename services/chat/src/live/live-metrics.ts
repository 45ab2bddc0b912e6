import { Counter, Gauge, type Registry } from 'prom-client';

/** What the chat metrics read from the hub when scraped. */
export interface LiveCounts {
  connections(): number;
  rooms(): number;
  deliveries(): number;
  messages(): number;
}

/** The live chat's metrics on this replica's registry. */
export function registerLiveMetrics(registry: Registry, hub: LiveCounts): void {
  // Read when scraped: nothing is counted per message beyond a number (the autoscaler scales chat on connections).
  const registers = [registry];
  const connections: Gauge = new Gauge({
    name: 'chat_connections',
    help: 'Open chat WebSockets on this replica',
    registers,
    collect: () => connections.set(hub.connections()),
  });
  const rooms: Gauge = new Gauge({
    name: 'chat_rooms_active',
    help: 'Chatrooms with members on this replica',
    registers,
    collect: () => rooms.set(hub.rooms()),
  });
  const deliveries: Counter = new Counter({
    name: 'chat_deliveries_total',
    help: 'Chat frames sent to sockets by this replica',
    registers,
    collect: () => {
      deliveries.reset();
      deliveries.inc(hub.deliveries());
    },
  });
  const messages: Counter = new Counter({
    name: 'chat_messages_total',
    help: 'Chat messages accepted from sockets on this replica (rate() gives messages per second)',
    registers,
    collect: () => {
      messages.reset();
      messages.inc(hub.messages());
    },
  });
}

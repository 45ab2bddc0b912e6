export * from './bus.port';
export type { BusLogger } from './bus-logger';
export { BusRequestError, type BusRequestErrorCode } from './bus-request.error';
export { subjectMatches } from './bus-rules';
export { InProcessBus, type InProcessBusOptions } from './in-process.bus';
export { DEFAULT_STREAM_NAME, NatsJetStreamBus, type NatsJetStreamBusOptions } from './nats-jetstream.bus';
export * from './outbox';
export { BusContext, type BusContextArgs } from './transport/bus-context';
export {
  BUS_TRANSPORT,
  BusTransport,
  startBusHandlers,
  type BusEventExtras,
  type BusTransportOptions,
} from './transport/bus.transport';

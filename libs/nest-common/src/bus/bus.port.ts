import type { ConsumerLag } from '../health/messaging-metrics';

/**
 * The bus port. Services publish events and answer requests through this interface only;
 * the module that wires a service chooses the adapter (NATS JetStream or in-process).
 */
export interface BusMessage<T = unknown> {
  /** Unique per logical event; redeliveries carry the same id, so handlers dedupe on it. */
  id: string;
  subject: string;
  data: T;
  headers: Record<string, string>;
  /** Number of times this message has been delivered (1 on first delivery). */
  deliveryCount: number;
}

export type BusHandler<T = unknown> = (message: BusMessage<T>) => Promise<void>;

export interface PublishOptions {
  /** Message id for dedupe; generated when absent. */
  id?: string;
  headers?: Record<string, string>;
}

export interface SubscribeOptions {
  /**
   * Durable consumer name, unique per service and handler (e.g. `content-user-deleted`).
   * Every replica of a service uses the same name, so each event is handled once per service.
   */
  durable: string;
  /** First redelivery delay after a handler throws; it doubles per delivery (capped at 60 s). Adapter default when absent. */
  retryDelayMs?: number;
  /** Give up (and log) after this many deliveries. */
  maxDeliver?: number;
}

export interface BusSubscription {
  unsubscribe(): Promise<void>;
}

export interface EventBus {
  /** Persist-and-forward publish: resolves once the broker has stored the message. */
  publish(subject: string, data: unknown, options?: PublishOptions): Promise<void>;
  /** At-least-once, durable delivery of events matching `subject` (wildcards `*` and `>` allowed). */
  subscribe<T = unknown>(
    subject: string,
    handler: BusHandler<T>,
    options: SubscribeOptions,
  ): Promise<BusSubscription>;
  /**
   * Request/reply for queries between services; rejects after `timeoutMs`. `headers` (e.g. x-request-id)
   * reach the replier's handler.
   */
  request<TReq = unknown, TRes = unknown>(
    subject: string,
    data: TReq,
    timeoutMs?: number,
    headers?: Record<string, string>,
  ): Promise<TRes>;
  /** Answer requests on `subject`; replicas share the load (queue group = service name). */
  reply<TReq = unknown, TRes = unknown>(
    subject: string,
    handler: (data: TReq, headers: Record<string, string>) => Promise<TRes>,
    queueGroup: string,
  ): Promise<BusSubscription>;
  /** True while the adapter can publish (readiness). */
  isReady(): boolean;
  /** Each durable consumer's lag as the broker counts it; adapters without a broker leave it out. */
  consumerLag?(): Promise<ConsumerLag[]>;
  close(): Promise<void>;
}

export const EVENT_BUS = Symbol('EVENT_BUS');

import { BaseRpcContext } from '@nestjs/microservices';
import type { EntityManager } from 'typeorm';
import type { BusMessage } from '../bus.port';

export interface BusContextArgs {
  subject: string;
  headers: Record<string, string>;
  /** The event as delivered; absent for a request. */
  message?: BusMessage;
  /** The inbox transaction of an event handler. */
  manager?: EntityManager;
}

/**
 * The second argument of every `@EventPattern`/`@MessagePattern` handler run by the platform's bus transport
 * (`BusTransport`), which alone creates it: the auth guard lets an `rpc` call through only with this context.
 */
export class BusContext extends BaseRpcContext<[BusContextArgs]> {
  get subject(): string {
    return this.args[0].subject;
  }

  /** Caller headers (e.g. `x-request-id`, which is already the current request id). */
  get headers(): Record<string, string> {
    return this.args[0].headers;
  }

  /** The event as delivered (id, delivery count, raw data); undefined in a request handler. */
  get message(): BusMessage | undefined {
    return this.args[0].message;
  }

  /**
   * The transaction the inbox entry commits in: write through it and the writes happen once per durable
   * (a redelivery finds the entry and is skipped; a failure rolls both back and the bus retries).
   */
  get manager(): EntityManager {
    const { manager } = this.args[0];
    if (!manager) {
      throw new Error(
        `no inbox transaction for ${this.subject}: only event handlers with the inbox on (the default) get one`,
      );
    }
    return manager;
  }
}

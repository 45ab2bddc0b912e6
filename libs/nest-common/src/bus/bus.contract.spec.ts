import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { describeEventBusContract } from './bus.contract';
import { InProcessBus } from './in-process.bus';
import { NatsJetStreamBus } from './nats-jetstream.bus';
import { NATS_URL, uniqueToken } from './test-support';

describeEventBusContract('InProcessBus', async (logger) => {
  const bus = new InProcessBus({ logger, retryDelayMs: 50 });
  return { bus, prefix: 'contract', dispose: () => bus.close() };
});

// One stream per run, on subjects nobody else uses, deleted afterwards: suites can run side by side.
const run = uniqueToken().toUpperCase();
const streamName = `CONTRACT_${run}`;
const prefix = `contract${run.toLowerCase()}`;

describeEventBusContract('NatsJetStreamBus', async (logger) => {
  const bus = await NatsJetStreamBus.connect({
    url: NATS_URL,
    streamName,
    subjects: [`${prefix}.>`],
    logger,
  });
  return { bus, prefix, dispose: () => bus.close() };
});

afterAll(async () => {
  const nc = await connect({ servers: NATS_URL });
  try {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(streamName).catch(() => undefined);
  } finally {
    await nc.close();
  }
});

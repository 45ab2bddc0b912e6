import { z } from 'zod';
import { PER_SERVICE, defineConfig, envInt } from '@district/nest-common';

/** Replicas of one service in `npm run start:cluster`: `IDENTITY_REPLICAS`, … */
const REPLICAS = `${PER_SERVICE}_REPLICAS` as const;

/**
 * `npm run start:cluster`'s own variables (ADR 0038); the rest (DATA_DIR, LOG_LEVEL, the datastores' URLs) are the
 * launcher's, read with its schema. An empty value is unset.
 */
export const clusterConfig = defineConfig('cluster', {
  [REPLICAS]: envInt(1, { min: 1, max: 100 }),
  /** Members listen on base+1, base+2, … (checked free first); `auto` picks a random free base (the tests' clusters). */
  CLUSTER_BASE_PORT: z
    .string()
    .regex(/^(\d+|auto)$/i, 'must be a port number or auto')
    .default('4100'),
});

export type ClusterConfig = ReturnType<typeof clusterConfig.load>;

/** Replicas of `service` (1 unless `<SERVICE>_REPLICAS` says otherwise). */
export const replicasOf = (config: ClusterConfig, service: string): number => config[REPLICAS][service];

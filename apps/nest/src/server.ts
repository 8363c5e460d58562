import * as client from 'prom-client';
import { run as runApp } from '@crudbench/node-base/http/run.js';
import { metricsServer } from '@crudbench/node-base/metrics.js';
import { personStore } from '@crudbench/node-base/store/persons.js';
import { platformOf, startNest } from './platform.js';

// rest 8081 … express 8084, yoga 8085, express-cluster 8086, grpc 8087,
// apollo 8088, mercurius 8089, fastify 8090, grpc-node 8091, amqp 8092,
// nest-graphql 8094, trpc 8095
const DEFAULT_ADDR = ':8093';

/**
 * run starts the app on the platform NEST_PLATFORM names and resolves once
 * it has shut down after signal: node-base's run, every HTTP Node app's
 * (configuration, logger, pool, stores, metrics, graceful stop).
 */
export async function run(env: NodeJS.ProcessEnv, { signal }: { signal?: AbortSignal } = {}): Promise<void> {
  const platform = platformOf(env.NEST_PLATFORM);
  return runApp(
    env,
    { signal },
    {
      defaultAddr: DEFAULT_ADDR,
      name: 'crudbench-nest',
      persons: personStore,
      serveMetrics: metricsServer(client),
      start: (deps) => startNest(deps, platform),
    },
  );
}

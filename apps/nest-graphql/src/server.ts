import client from 'prom-client';
import { metricsServer } from '@crudbench/node-base/metrics.js';
import { personStore } from '@crudbench/node-base/graphql/persons.js';
import { run as runApp } from '@crudbench/node-base/http/run.js';
import { createApp } from './app.js';
import type { Deps } from './deps.js';
import { readDriver } from './driver.js';

const DEFAULT_ADDR = ':8094'; // … apollo 8088, mercurius 8089, fastify 8090, grpc-node 8091, amqp 8092

/**
 * run starts the app with the driver NEST_GRAPHQL_DRIVER names and resolves
 * once it has shut down after signal: node-base's run, which reads the
 * configuration, opens the pool, serves the metrics and stops gracefully.
 */
export async function run(env: NodeJS.ProcessEnv, { signal }: { signal?: AbortSignal } = {}) {
  const driver = readDriver(env.NEST_GRAPHQL_DRIVER);
  return runApp(
    env,
    { signal },
    {
      defaultAddr: DEFAULT_ADDR,
      name: `crudbench-nest-${driver}`,
      persons: personStore,
      serveMetrics: metricsServer(client),
      async start({ serve, config, ...deps }) {
        const app = await createApp(driver, deps as unknown as Deps, serve);
        await app.init();
        const { port, host } = config.addr;
        return {
          server: app.getHttpServer(),
          // An empty host is every interface, which Fastify's listen needs named.
          listen: () => (host || driver === 'mercurius' ? app.listen(port, host || '::') : app.listen(port)),
          // Nest's close stops the driver (Apollo drains the server first)
          // and closes the server, which waits for requests in flight.
          stop: () => app.close(),
        };
      },
    },
  );
}

import { buildApp } from './app.js';
import client from 'prom-client';
import { metricsServer } from '@crudbench/node-base/metrics.js';
import { run as runApp } from '@crudbench/node-base/http/run.js';
import { personStore } from '@crudbench/node-base/store/persons.js';

const DEFAULT_ADDR = ':8090'; // rest 8081 … express 8084, yoga 8085, express-cluster 8086, grpc 8087, apollo 8088, mercurius 8089

/** run starts the app and resolves once it has shut down after signal. */
export function run(env, { signal } = {}) {
  return runApp(
    env,
    { signal },
    {
      defaultAddr: DEFAULT_ADDR,
      name: 'crudbench-fastify',
      persons: personStore,
      serveMetrics: metricsServer(client),
      async start(deps) {
        const app = buildApp(deps);
        await app.ready();
        // node-base's server (app.js's serverFactory) listens where ADDR
        // says, an empty host on every interface as Node's listen takes it;
        // Fastify's own listen would read an empty host as localhost.
        return { server: app.server, close: () => app.close() };
      },
    },
  );
}

import cluster from 'node:cluster';
import { createApp } from './app.js';
import { sendProblem } from './http/respond.js';
import client from 'prom-client';
import { reportToPrimary } from './metrics.js';
import { metricsServer } from '@crudbench/node-base/metrics.js';
import { run as runApp } from '@crudbench/node-base/http/run.js';
import { personStore } from '@crudbench/node-base/store/persons.js';

const DEFAULT_ADDR = ':8084'; // rest 8081, graphql 8082, htmx 8083

/** run starts the app and resolves once it has shut down after signal. */
export function run(env, { signal } = {}) {
  return runApp(
    env,
    { signal },
    {
      defaultAddr: DEFAULT_ADDR,
      name: 'crudbench-express',
      persons: personStore,
      serveMetrics: metricsServer(client),
      start({ serve, ...deps }) {
        // A cluster worker's figures go to the primary, which adds them up.
        if (cluster.isWorker) reportToPrimary(deps.pool);
        // The Go apps' HTTP rules; the request deadline is app.js's own.
        const server = serve(createApp(deps), {
          badBody: (req, res) => sendProblem(req, res, 400, 'the body could not be read'),
          internal: (req, res) => sendProblem(req, res, 500),
        });
        return { server };
      },
    },
  );
}

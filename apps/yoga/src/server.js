import { createApp } from './app.js';
import client from 'prom-client';
import { metricsServer } from '@crudbench/node-base/metrics.js';
import { answers } from '@crudbench/node-base/graphql/answers.js';
import { writeError } from '@crudbench/node-base/graphql/errors.js';
import { run as runApp } from '@crudbench/node-base/http/run.js';
import { personStore } from '@crudbench/node-base/graphql/persons.js';

const DEFAULT_ADDR = ':8085'; // rest 8081, graphql 8082, htmx 8083, express 8084

/** run starts the app and resolves once it has shut down after signal. */
export function run(env, { signal } = {}) {
  return runApp(
    env,
    { signal },
    {
      defaultAddr: DEFAULT_ADDR,
      name: 'crudbench-yoga',
      persons: personStore,
      serveMetrics: metricsServer(client),
      start({ serve, ...deps }) {
        // The Go apps' HTTP rules, and the request deadline Yoga has not.
        return { server: serve(createApp(deps), answers(writeError)) };
      },
    },
  );
}

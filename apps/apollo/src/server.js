import { createApollo, createApp } from './app.js';
import client from 'prom-client';
import { writeError } from '@crudbench/node-base/graphql/errors.js';
import { metricsServer } from '@crudbench/node-base/metrics.js';
import { answers } from '@crudbench/node-base/graphql/answers.js';
import { run as runApp } from '@crudbench/node-base/http/run.js';
import { personStore } from '@crudbench/node-base/graphql/persons.js';

const DEFAULT_ADDR = ':8088'; // rest 8081, graphql 8082, htmx 8083, express 8084, yoga 8085, grpc 8087

/** run starts the app and resolves once it has shut down after signal. */
export function run(env, { signal } = {}) {
  return runApp(
    env,
    { signal },
    {
      defaultAddr: DEFAULT_ADDR,
      name: 'crudbench-apollo',
      persons: personStore,
      serveMetrics: metricsServer(client),
      async start({ serve, ...deps }) {
        const apollo = createApollo({ logger: deps.logger });
        await apollo.start();
        // The Go apps' HTTP rules, and the request deadline Apollo has not.
        const server = serve(createApp({ apollo, ...deps }), answers(writeError));
        return { server, close: () => apollo.stop() };
      },
    },
  );
}

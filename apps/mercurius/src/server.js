import { createApp } from './app.js';
import client from 'prom-client';
import { writeError } from '@crudbench/node-base/graphql/errors.js';
import { ConfigError } from '@crudbench/node-base/config.js';
import { metricsServer } from '@crudbench/node-base/metrics.js';
import { answers } from '@crudbench/node-base/graphql/answers.js';
import { run as runApp } from '@crudbench/node-base/http/run.js';
import { personStore } from '@crudbench/node-base/graphql/persons.js';

const DEFAULT_ADDR = ':8089'; // rest 8081, graphql 8082, htmx 8083, express 8084, yoga 8085, grpc 8087, apollo 8088

/** run starts the app and resolves once it has shut down after signal. */
export function run(env, { signal } = {}) {
  return runApp(
    env,
    { signal },
    {
      defaultAddr: DEFAULT_ADDR,
      name: 'crudbench-mercurius',
      persons: personStore,
      serveMetrics: metricsServer(client),
      start({ serve, ...deps }) {
        const jit = readJit(env.MERCURIUS_JIT);
        // The Go apps' HTTP rules, and the request deadline Mercurius has not.
        const serverFactory = (handler) => serve(handler, answers(writeError));
        const app = createApp({ ...deps, jit, serverFactory });
        const { port, host } = deps.config.addr;
        return {
          server: app.server,
          listen: () => app.listen({ port, host: host || '::' }),
          // Fastify closes the idle connections and waits for the others.
          stop: () => app.close(),
        };
      },
    },
  );
}

/**
 * readJit reads MERCURIUS_JIT, Mercurius's jit option: empty or 0 leaves
 * graphql-jit off (Mercurius's default); n compiles a query once it has run
 * n times (1: on its second run).
 */
function readJit(raw = '') {
  if (raw.trim() === '') return 0;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) {
    throw new ConfigError(`config: MERCURIUS_JIT ${JSON.stringify(raw)}: must be empty or a whole number, such as 1`);
  }
  return n;
}

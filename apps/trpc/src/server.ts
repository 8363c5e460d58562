import client from 'prom-client';
import { run as runApp } from '@crudbench/node-base/http/run.js';
import { metricsServer } from '@crudbench/node-base/metrics.js';
import { personStore } from '@crudbench/node-base/store/persons.js';
import { createApp, sendError } from './app.js';
import type { Deps } from './deps.js';

const DEFAULT_ADDR = ':8095'; // rest 8081, graphql 8082, htmx 8083, express 8084, … grpc-node 8091

/** run starts the app and resolves once it has shut down after signal. */
export function run(env: NodeJS.ProcessEnv, { signal }: { signal?: AbortSignal } = {}): Promise<void> {
  return runApp(
    env,
    { signal },
    {
      defaultAddr: DEFAULT_ADDR,
      name: 'crudbench-trpc',
      persons: personStore,
      serveMetrics: metricsServer(client),
      start({ serve, ...deps }) {
        // The Go apps' HTTP rules (node-base's server: slow heads, the
        // header budget, framing, a body bounded by the deadline) before
        // tRPC runs; the request deadline is the procedures' own (trpc.ts).
        const server = serve(createApp(deps as unknown as Deps & { pool: { query(text: string): Promise<unknown> } }), {
          badBody: (_req, res) => sendError(res, 'BAD_REQUEST', 'the request body could not be read'),
          internal: (_req, res) => sendError(res, 'INTERNAL_SERVER_ERROR', 'internal error'),
        });
        return { server };
      },
    },
  );
}

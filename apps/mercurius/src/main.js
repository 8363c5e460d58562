// The crudbench GraphQL API on Mercurius and Fastify 5: the same schema,
// database and environment as the Go graphql app (docs/contract.md).
import { ConfigError } from '@crudbench/node-base/config.js';
import { run } from './server.js';

const controller = new AbortController();
for (const sig of ['SIGTERM', 'SIGINT']) process.once(sig, () => controller.abort());
run(process.env, { signal: controller.signal }).catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});

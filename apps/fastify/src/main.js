// The crudbench REST API on Fastify: the same contract, database and
// environment as the Go rest app (docs/contract.md).
import { ConfigError } from '@crudbench/node-base/config.js';
import { run } from './server.js';

const controller = new AbortController();
for (const sig of ['SIGTERM', 'SIGINT']) process.once(sig, () => controller.abort());
run(process.env, { signal: controller.signal }).catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});

// The crudbench trpc contract on tRPC's standalone Node adapter: the same
// database, store and environment as every crudbench app
// (docs/contract.md).
import { ConfigError } from '@crudbench/node-base/config.js';
import { run } from './server.js';

const controller = new AbortController();
for (const sig of ['SIGTERM', 'SIGINT'] as const) process.once(sig, () => controller.abort());
run(process.env, { signal: controller.signal }).catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});

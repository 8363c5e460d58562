// The crudbench gRPC service (crudbench.v1.Staff) on Node.js: the same
// contract, database and environment as the Go grpc app (docs/contract.md,
// "Kind grpc").
import { ConfigError } from '@crudbench/node-base/config.js';
import { run } from './server.js';

const controller = new AbortController();
for (const sig of ['SIGTERM', 'SIGINT']) process.once(sig, () => controller.abort());
run(process.env, { signal: controller.signal }).catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});

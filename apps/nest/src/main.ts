// The crudbench REST API on NestJS: the same contract, database and
// environment as the Go rest app (docs/contract.md), on Nest's Express
// platform, or its Fastify platform with NEST_PLATFORM=fastify.
import 'reflect-metadata';
import { ConfigError } from '@crudbench/node-base/config.js';
import { run } from './server.js';

const controller = new AbortController();
for (const sig of ['SIGTERM', 'SIGINT'] as const) process.once(sig, () => controller.abort());
run(process.env, { signal: controller.signal }).catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});

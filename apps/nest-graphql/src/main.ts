// The crudbench GraphQL API on NestJS (@nestjs/graphql, schema first): the
// same schema, database and environment as the Go graphql app
// (docs/contract.md), served by Nest's Apollo driver on its Express
// platform, or with NEST_GRAPHQL_DRIVER=mercurius by its Mercurius driver
// on its Fastify platform.
import 'reflect-metadata';
import { ConfigError } from '@crudbench/node-base/config.js';
import { run } from './server.js';

const controller = new AbortController();
for (const sig of ['SIGTERM', 'SIGINT'] as const) process.once(sig, () => controller.abort());
run(process.env, { signal: controller.signal }).catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});

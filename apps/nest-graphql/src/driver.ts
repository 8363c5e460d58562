import { ConfigError } from '@crudbench/node-base/config.js';
import type { Driver } from './deps.js';

/**
 * readDriver reads NEST_GRAPHQL_DRIVER: empty or apollo is @nestjs/apollo
 * on Nest's Express platform (the row nest-graphql), mercurius is
 * @nestjs/mercurius on its Fastify platform (nest-mercurius).
 */
export function readDriver(raw = ''): Driver {
  const name = raw.trim();
  if (name === '' || name === 'apollo') return 'apollo';
  if (name === 'mercurius') return 'mercurius';
  throw new ConfigError(`config: NEST_GRAPHQL_DRIVER ${JSON.stringify(raw)}: must be empty, apollo or mercurius`);
}

import { createSchema } from 'graphql-yoga';
import { buildSchema as buildGraphQLSchema } from '@crudbench/node-base/graphql/schema.js';
import { badInput } from './inputs.js';
import { resolvers } from './resolvers.js';

/** buildSchema returns the executable schema: node-base's, the Go app's, made executable by Yoga's createSchema. */
export function buildSchema() {
  return buildGraphQLSchema({ makeSchema: createSchema, resolvers, badInput });
}

import { createSchema } from 'graphql-yoga';
import { buildSchema as buildGraphQLSchema } from '@crudbench/node-base/graphql/schema.js';
import { badInput } from './inputs.js';
import { resolvers } from './resolvers.js';

// The Go app's schema files, the one source of truth for every GraphQL app.
const SCHEMA_DIR = new URL('../../graphql/graph/', import.meta.url);

/** buildSchema returns the executable schema: node-base's, the Go app's, made executable by Yoga's createSchema. */
export function buildSchema() {
  return buildGraphQLSchema({ makeSchema: createSchema, resolvers, badInput, schemaDir: SCHEMA_DIR });
}

import { makeExecutableSchema } from '@graphql-tools/schema';
import { buildSchema as buildGraphQLSchema } from '@crudbench/node-base/graphql/schema.js';
import { badInput } from '@crudbench/node-base/graphql/mercurius.js';
import { resolvers } from './resolvers.js';

// The Go app's schema files, the one source of truth for every GraphQL app.
const SCHEMA_DIR = new URL('../../graphql/graph/', import.meta.url);

/** buildSchema returns the executable schema: node-base's, the Go app's, made executable by @graphql-tools' makeExecutableSchema. */
export function buildSchema() {
  return buildGraphQLSchema({ makeSchema: makeExecutableSchema, resolvers, badInput, schemaDir: SCHEMA_DIR });
}

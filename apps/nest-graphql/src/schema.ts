import { fileURLToPath } from 'node:url';
import { addResolversToSchema } from '@graphql-tools/schema';
import type { IResolvers } from '@graphql-tools/utils';
import type { GraphQLSchema } from 'graphql';
import { createInputs } from '@crudbench/node-base/graphql/inputs.js';
import { buildSchema } from '@crudbench/node-base/graphql/schema.js';
import { resolvers } from './resolvers/node-base.js';

// The Go app's schema files, the one source of truth for every GraphQL app.
const SCHEMA_DIR = new URL('../../graphql/graph/', import.meta.url);

/** TYPE_PATHS are the schema files, as @nestjs/graphql's typePaths reads them. */
export const TYPE_PATHS = [fileURLToPath(SCHEMA_DIR) + '*.graphqls'];

// GraphQL enums are upper case, the database's values lower case: node-base's maps.
const ENUMS = ['Role', 'PersonStatus', 'PayerKind', 'EmploymentType', 'VacancyStatus'];

const { badInput } = createInputs();

/**
 * transformSchema is @nestjs/graphql's hook for the schema it built from
 * TYPE_PATHS and the resolver classes: node-base's buildSchema, with the
 * Go app's scalars (Date, Time, Int64, their refusals BAD_USER_INPUT) and
 * enum values added to Nest's schema, and its @auth/@editor transform, as
 * every GraphQL app's schema is made.
 */
export function transformSchema(schema: GraphQLSchema): GraphQLSchema {
  return buildSchema({
    // Nest read the type definitions already: the schema is Nest's, given
    // node-base's scalar and enum resolvers.
    makeSchema: ({ resolvers: added }) => addResolversToSchema({ schema, resolvers: added as IResolvers }),
    resolvers: Object.fromEntries(ENUMS.map((name) => [name, resolvers[name]])),
    badInput,
    schemaDir: SCHEMA_DIR,
  });
}

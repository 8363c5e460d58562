import { readFileSync, readdirSync } from 'node:fs';
import { GraphQLError, GraphQLScalarType, Kind, defaultFieldResolver } from 'graphql';
import { MapperKind, getDirective, mapSchema } from '@graphql-tools/utils';

// The schema is the Go app's, read from its files at start: one source of
// truth for every GraphQL server. Each app names the folder (its code reads
// the files, and ships them: the stack facts count them as the app's, not
// as every Node app's). @auth and @editor are a schema transform, as
// Apollo's and Mercurius's docs write custom directives (@graphql-tools'
// mapSchema).

/** loadTypeDefs returns the schema files (*.graphqls) of the folder schemaDir (a file: URL), in name order. */
export function loadTypeDefs(schemaDir) {
  return readdirSync(schemaDir)
    .filter((name) => name.endsWith('.graphqls'))
    .sort()
    .map((name) => readFileSync(new URL(name, schemaDir), 'utf8'));
}

/** isDate reports whether s is a real calendar date written YYYY-MM-DD. */
function isDate(s) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
}

/** scalars returns the schema's scalars; a Date or Int64 argument the type refuses is badInput(message, node). */
const scalars = (badInput) => ({
  Date: new GraphQLScalarType({
    name: 'Date',
    serialize: (v) => v,
    parseValue(v) {
      if (typeof v !== 'string' || !isDate(v)) throw badInput('must be a date written YYYY-MM-DD');
      return v;
    },
    parseLiteral(ast) {
      if (ast.kind !== Kind.STRING || !isDate(ast.value)) throw badInput('must be a date written YYYY-MM-DD', ast);
      return ast.value;
    },
  }),
  // Instants come from the store already written in RFC 3339.
  Time: new GraphQLScalarType({ name: 'Time', serialize: (v) => (v instanceof Date ? v.toISOString() : v) }),
  Int64: new GraphQLScalarType({
    name: 'Int64',
    serialize: (v) => v,
    parseValue(v) {
      if (!Number.isSafeInteger(v)) throw badInput('must be a whole number');
      return v;
    },
    parseLiteral(ast) {
      if (ast.kind !== Kind.INT || !Number.isSafeInteger(Number(ast.value))) throw badInput('must be a whole number', ast);
      return Number(ast.value);
    },
  }),
});

/**
 * withAccessDirectives makes @auth and @editor do what the schema says:
 * the field resolves only for a signed-in user, or an editor.
 */
function withAccessDirectives(schema) {
  return mapSchema(schema, {
    [MapperKind.OBJECT_FIELD](field) {
      const editor = getDirective(schema, field, 'editor')?.[0];
      const auth = getDirective(schema, field, 'auth')?.[0];
      if (!editor && !auth) return field;
      const resolve = field.resolve ?? defaultFieldResolver;
      return {
        ...field,
        resolve(source, args, ctx, info) {
          if (!ctx.user) {
            throw new GraphQLError(ctx.tokenError ?? 'log in first: send the token from login as Authorization: Bearer', {
              extensions: { code: 'UNAUTHENTICATED' },
            });
          }
          if (editor && ctx.user.role !== 'editor') {
            throw new GraphQLError('your role may read but not change data', { extensions: { code: 'FORBIDDEN' } });
          }
          return resolve(source, args, ctx, info);
        },
      };
    },
  });
}

/**
 * buildSchema returns the executable schema: the Go app's type definitions
 * and scalars with resolvers, made executable by makeSchema (the engine's
 * own: @graphql-tools' makeExecutableSchema, Yoga's createSchema), given
 * { typeDefs, resolvers }, the type definitions read from schemaDir (the
 * Go app's apps/graphql/graph/). badInput(message, node) is the app's
 * error for a leaf value its type refuses.
 */
export function buildSchema({ makeSchema, resolvers, badInput, schemaDir }) {
  return withAccessDirectives(makeSchema({ typeDefs: loadTypeDefs(schemaDir), resolvers: { ...scalars(badInput), ...resolvers } }));
}

import { GraphQLError, Kind, getOperationAST, specifiedRules, validate } from 'graphql';
import { knownRootTypeRule } from '@crudbench/node-base/graphql/rules.js';
import { REQUEST_ERROR, nameInputErrors } from './inputs.js';

// Yoga picks the operation to run as soon as the document is parsed, and
// answers a request it cannot pick one for itself, before validating:
// BAD_REQUEST for no query, OPERATION_RESOLUTION_FAILURE for a document it
// cannot choose in, 400 whatever the client accepts. gqlgen, and so the
// contract, answers them as request errors (200 with application/json,
// 400 with application/graphql-response+json), GRAPHQL_VALIDATION_FAILED.

/** refused is a request error of gqlgen's, in its words. */
const refused = (message) => new GraphQLError(message, { extensions: { code: 'GRAPHQL_VALIDATION_FAILED', http: { ...REQUEST_ERROR } } });

/**
 * useOperationChoice answers as gqlgen does a request Yoga cannot pick an
 * operation for:
 *
 * - no query is "no operation provided";
 * - a document with an anonymous operation beside others breaks the
 *   GraphQL spec's Lone Anonymous Operation rule, and is validated: its
 *   validation errors, one for each anonymous operation among them, as
 *   gqlgen and graphql-js answer any invalid document; schema is the one
 *   Yoga serves;
 * - an operationName the document does not hold, or none for a document
 *   of several operations, is "operation … not found".
 */
export function useOperationChoice(schema) {
  const rules = [...specifiedRules, knownRootTypeRule];
  return {
    onParams({ params }) {
      // What is not an object of parameters is Yoga's BAD_REQUEST, as gqlgen's.
      if (params && typeof params === 'object' && !Array.isArray(params) && params.query == null) throw refused('no operation provided');
    },
    onParse({ context }) {
      return ({ result }) => {
        if (result instanceof Error) return;
        if (anonymousBesideOthers(result)) {
          const errors = validate(schema, result, rules);
          nameInputErrors(result, errors);
          for (const error of errors) {
            error.extensions.code ||= 'GRAPHQL_VALIDATION_FAILED';
            error.extensions.http ||= { ...REQUEST_ERROR };
          }
          throw new AggregateError(errors, 'the document is not valid');
        }
        const name = context?.params?.operationName;
        if (!getOperationAST(result, name)) throw refused(`operation ${name ?? ''} not found`);
      };
    },
  };
}

/** anonymousBesideOthers reports whether document has an anonymous operation and another one. */
function anonymousBesideOthers(document) {
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  return operations.length > 1 && operations.some((op) => !op.name);
}

import { Kind, specifiedRules, validate } from 'graphql';
import { knownRootTypeRule } from '@crudbench/node-base/graphql/rules.js';
import { REQUEST_ERROR, nameInputErrors } from './inputs.js';

/**
 * useLoneAnonymousOperation validates a document that holds an anonymous
 * operation beside others, which Yoga refuses before validating it: Yoga
 * picks the operation to run as soon as the document is parsed and answers
 * one it cannot pick OPERATION_RESOLUTION_FAILURE, 400 whatever the client
 * accepts. Such a document breaks the GraphQL spec's Lone Anonymous
 * Operation rule, and gqlgen and graphql-js answer it as any invalid
 * document: its validation errors (one for each anonymous operation among
 * them), GRAPHQL_VALIDATION_FAILED, a request error. schema is the one
 * Yoga serves.
 */
export function useLoneAnonymousOperation(schema) {
  const rules = [...specifiedRules, knownRootTypeRule];
  return {
    onParse() {
      return ({ result }) => {
        if (result instanceof Error || !anonymousBesideOthers(result)) return;
        const errors = validate(schema, result, rules);
        nameInputErrors(result, errors);
        for (const error of errors) {
          error.extensions.code ||= 'GRAPHQL_VALIDATION_FAILED';
          error.extensions.http ||= { ...REQUEST_ERROR };
        }
        throw new AggregateError(errors, 'the document is not valid');
      };
    },
  };
}

/** anonymousBesideOthers reports whether document has an anonymous operation and another one. */
function anonymousBesideOthers(document) {
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  return operations.length > 1 && operations.some((op) => !op.name);
}

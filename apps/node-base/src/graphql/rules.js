import { GraphQLError } from 'graphql';

/**
 * knownRootTypeRule is gqlparser's KnownRootType validation rule, which
 * graphql-js 16 lacks (it refuses such an operation only when it runs): an
 * operation whose type the schema has no root for (a subscription here) is
 * a validation error, in the Go app's words.
 */
export function knownRootTypeRule(context) {
  const schema = context.getSchema();
  return {
    OperationDefinition(node) {
      if (schema.getRootType(node.operation)) return;
      context.reportError(new GraphQLError(`Schema does not support operation type "${node.operation}"`, { nodes: node }));
    },
  };
}

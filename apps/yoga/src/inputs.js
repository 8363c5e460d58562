import { Kind } from 'graphql';
import { createInputs } from '@crudbench/node-base/graphql/inputs.js';

// Bad input is refused as the Go app refuses it, by node-base's checks
// (graphql/inputs.js), where graphql-js and Yoga would answer otherwise: a
// leaf value the schema refuses is BAD_USER_INPUT, HTTP 200 whatever the
// client accepts; a variable of the wrong shape GRAPHQL_VALIDATION_FAILED,
// 400 with application/graphql-response+json, 200 with application/json.
// Yoga would answer it 400 without a code.

/** A request error: 400 only for clients of the GraphQL-over-HTTP spec's media type. */
export const REQUEST_ERROR = Object.freeze({ status: 400, spec: true });

/** A field error: 200, as a GraphQL response that ran. */
const FIELD_ERROR = Object.freeze({ status: 200, spec: false });

const inputs = createInputs({ fieldHttp: FIELD_ERROR, requestHttp: REQUEST_ERROR });

/**
 * badInput is node-base's, with Yoga's HTTP status in extensions.http;
 * nameInputErrors names the field of each BAD_USER_INPUT error
 * validation found.
 */
export const { badInput, nameInputErrors } = inputs;

/** useInputErrors is the Yoga plugin that answers bad input as above. */
export function useInputErrors() {
  return {
    onValidate({ params }) {
      return ({ result }) => nameInputErrors(params.documentAST, result);
    },
    onExecute({ args, setResultAndStopExecution }) {
      const operation = args.document.definitions.find(
        (d) => d.kind === Kind.OPERATION_DEFINITION && (!args.operationName || d.name?.value === args.operationName),
      );
      if (!operation) return;
      const errors = inputs.variableErrors(args.schema, args.document, operation, args.variableValues);
      if (errors.length > 0) setResultAndStopExecution({ errors });
    },
  };
}

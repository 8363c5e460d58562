import { createInputs } from '@crudbench/node-base/graphql/inputs.js';

// Bad input is refused as the Go app refuses it, by node-base's checks
// (graphql/inputs.js), where graphql-js and Apollo would answer otherwise:
// Apollo would make a leaf value the schema refuses GRAPHQL_VALIDATION_FAILED
// in the document and a 400 in a variable, and a variable of the wrong shape
// BAD_USER_INPUT, 400. The HTTP status of each is the response's, set in
// one place (errors.js).

/** badInput, nameInputErrors and variableErrors are node-base's, without extensions.http. */
export const { badInput, nameInputErrors, variableErrors } = createInputs();

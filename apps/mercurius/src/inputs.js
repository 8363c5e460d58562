import { createInputs } from '@crudbench/node-base/graphql/inputs.js';

// Bad input is refused as the Go app refuses it, by node-base's checks
// (graphql/inputs.js), where graphql-js and Mercurius would answer
// otherwise: Mercurius would make a leaf value the schema refuses, in the
// document or a variable, a GraphQL validation error, 400. The error
// formatter (errors.js) names the fields and sets the HTTP status.

/** badInput, inputNamesAt and variableErrors are node-base's, without extensions.http. */
export const { badInput, inputNamesAt, variableErrors } = createInputs();

import { getOperationAST } from 'graphql';
import { checkDocument, checkNesting, checkQuerySize, measureOperation } from '@crudbench/node-base/graphql/limits.js';
import { Refused, refusal } from './errors.js';
import { variableErrors } from './inputs.js';

// The Go app's limits (apps/node-base/src/graphql/limits.js), in the
// places its server checks them, each at the Mercurius hook that comes
// there, so that a document breaking several limits gets the Go app's
// code: the size before parsing (preParsing), the tokens while parsing
// (graphql.parseOptions.maxTokens, app.js), the nesting and the document's
// counts once it is parsed and before it is validated (preValidation), the
// operation's depth and cost after validation, once the variables are read
// (preExecution). Mercurius keeps the documents that passed validation by
// their text: a document sent again is neither validated nor counted again.

/**
 * bounds are the request's deadline (a performance.now() time, set by the
 * app when the request arrived) and its signal (aborted when the client
 * leaves), from the request's context.
 */
const bounds = (context) => ({ deadline: context.deadline, signal: context.signal });

/** refuse throws the refusal of a limit, which the error formatter answers. */
function refuse(refused) {
  throw new Refused([refusal(refused)]);
}

/** addLimits adds the hooks enforcing the limits, and reading the variables before them, to app's Mercurius. */
export function addLimits(app) {
  app.graphql.addHook('preParsing', async (schema, source) => {
    const tooLarge = checkQuerySize(source);
    if (tooLarge) refuse(tooLarge);
  });
  app.graphql.addHook('preValidation', async (schema, document, context) => {
    const refused = checkNesting(document) ?? checkDocument(document, bounds(context)).refusal;
    if (refused) refuse(refused);
  });
  // Bad variables first, then the operation's measures: gqlgen reads the
  // variables before it weighs the query. Mercurius has read them already,
  // but not on the request that compiles a query with graphql-jit.
  app.graphql.addHook('preExecution', async (schema, document, context, variables) => {
    const operation = getOperation(document, context);
    if (!operation) return;
    const errors = variableErrors(schema, document, operation, variables);
    if (errors.length > 0) throw new Refused(errors);
    const { refusal: refused } = measureOperation(schema, document, operation, variables, bounds(context));
    if (refused) refuse(refused);
  });
}

/** getOperation is the operation of document the request names, or its only one. */
function getOperation(document, context) {
  const request = context.reply.request;
  return getOperationAST(document, request.method === 'POST' ? request.body?.operationName : request.query.operationName);
}

import { GraphQLError, getOperationAST, parse } from 'graphql';
import { MAX_QUERY_TOKENS, checkDocument, checkNesting, checkQuerySize, measureOperation } from '@crudbench/node-base/graphql/limits.js';
import { RETRY_AFTER } from '@crudbench/node-base/http/server.js';
import { REQUEST_ERROR } from './inputs.js';

// The Go app's limits (apps/node-base/src/graphql/limits.js), in the
// places its server checks them: the size before parsing, the tokens and
// the nesting while parsing, the document's counts once it is parsed and
// before it is validated, the operation's depth and cost after validation
// (they need the schema's types), so that a document breaking several
// limits gets the Go app's code.

/**
 * refused is the GraphQL error of a refusal: a request error, like a parse
 * error (400 for clients of application/graphql-response+json, 200 for
 * those of application/json), but for a request whose deadline passed
 * while it was checked, which is an outage: 503 with Retry-After.
 */
function refused({ code, message }) {
  const http = code === 'UNAVAILABLE' ? { status: 503, headers: { 'Retry-After': RETRY_AFTER } } : { ...REQUEST_ERROR };
  return new GraphQLError(message, { extensions: { code, http } });
}

/**
 * bounds are the request's deadline (a performance.now() time, set by the
 * app when the request arrived) and its signal (aborted when the client
 * leaves), from a Yoga context.
 */
const bounds = (context) => ({ deadline: context?.deadline, signal: context?.request?.signal });

/**
 * parseWithin parses source, stopping at MAX_QUERY_TOKENS tokens with the
 * Go app's message where graphql-js has its own.
 */
function parseWithin(source, options) {
  try {
    return parse(source, { ...options, maxTokens: MAX_QUERY_TOKENS });
  } catch (err) {
    if (err instanceof GraphQLError && err.message.includes(`${MAX_QUERY_TOKENS} tokens`)) {
      throw refused({ code: 'GRAPHQL_PARSE_FAILED', message: `exceeded token limit of ${MAX_QUERY_TOKENS}` });
    }
    throw err;
  }
}

/** useLimits is the Yoga plugin enforcing the limits. */
export function useLimits() {
  // The documents that passed the document limits: Yoga's parser cache
  // hands the same object to every request with the same text, which is
  // then not counted again.
  const passed = new WeakSet();
  return {
    // The document limits are checked as soon as the document is parsed,
    // as gqlgen checks them, before Yoga picks the operation to run. Yoga
    // caches a parse error for the text, so a refusal by a limit is given
    // again without work; one by the deadline must not be, and is left to
    // onValidate, which runs for every request.
    onParse({ params, context, setParseFn }) {
      const tooLarge = checkQuerySize(String(params.source?.body ?? params.source ?? ''));
      if (tooLarge) throw refused(tooLarge);
      setParseFn((source, options) => {
        const document = parseWithin(source, options);
        const refusal = checkNesting(document) ?? checkDocument(document, bounds(context)).refusal;
        if (refusal?.code === 'UNAVAILABLE') return document;
        if (refusal) throw refused(refusal);
        passed.add(document);
        return document;
      });
    },
    onValidate({ params: { documentAST }, context }) {
      if (passed.has(documentAST)) return;
      const { refusal } = checkDocument(documentAST, bounds(context));
      if (refusal) throw refused(refusal);
      passed.add(documentAST);
    },
    onExecute({ args, setResultAndStopExecution }) {
      const operation = getOperationAST(args.document, args.operationName);
      if (!operation) return;
      const { refusal } = measureOperation(args.schema, args.document, operation, args.variableValues, bounds(args.contextValue));
      if (refusal) setResultAndStopExecution({ errors: [refused(refusal)] });
    },
  };
}

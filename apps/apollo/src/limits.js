import { GraphQLError, parse } from 'graphql';
import { HeaderMap } from '@apollo/server';
import { checkDocument, checkNesting, checkQuerySize, measureOperation } from '@crudbench/node-base/graphql/limits.js';
import { requestErrorStatus, writeError } from '@crudbench/node-base/graphql/errors.js';
import { nameInputErrors, variableErrors } from './inputs.js';

// The Go app's limits (apps/node-base/src/graphql/limits.js), in the
// places its server checks them, so that a document breaking several
// limits gets the Go app's code: the size before parsing (an Express
// middleware: Apollo has no hook that answers before it parses), the
// tokens while parsing (parseOptions.maxTokens, app.js), the nesting and
// the document's counts once it is parsed and before it is validated
// (validationDidStart), the operation's depth and cost after validation,
// once the variables are read (responseForOperation). Apollo keeps the
// documents that passed validation, and so the limits, by their hash: a
// document sent again is not counted again.

/**
 * refuseLargeQuery is the Express middleware refusing a query text over
 * MAX_QUERY_BYTES before Apollo parses it, as a request error.
 */
export function refuseLargeQuery(req, res, next) {
  const query = req.method === 'POST' ? req.body?.query : req.query.query;
  const refused = typeof query === 'string' ? checkQuerySize(query) : null;
  if (!refused) return next();
  return writeError(req, res, requestErrorStatus(req.headers.accept), refused.code, refused.message);
}

/**
 * bounds are the request's deadline (a performance.now() time, set by the
 * app when the request arrived) and its signal (aborted when the client
 * leaves), from the request's context.
 */
const bounds = ({ contextValue }) => ({ deadline: contextValue.deadline, signal: contextValue.signal });

// A document the limits refused is validated as a stand-in holding nothing,
// which refusedRule refuses with the limit's error: Apollo's plugins cannot
// answer before validation (an error thrown from validationDidStart is an
// internal error), and the document itself must not reach the validator,
// whose cost is what the limits bound.
const refusals = new WeakMap();

/** refusedRule is the validation rule reporting the refusal of a stand-in document. */
export function refusedRule(context) {
  return {
    Document(node) {
      const error = refusals.get(node);
      if (error) context.reportError(error);
    },
  };
}

/**
 * clientErrors are errors as the response carries them: the GraphQL
 * fields, which a plugin's response has to give itself.
 */
const clientErrors = (errors) => errors.map((e) => e.toJSON());

/** useLimits is the Apollo plugin enforcing the limits, and reading the variables before them. */
export function useLimits() {
  return {
    async requestDidStart() {
      return {
        async validationDidStart(requestContext) {
          const { document } = requestContext;
          const refused = checkNesting(document) ?? checkDocument(document, bounds(requestContext)).refusal;
          if (refused) {
            const standIn = parse('{ __typename }');
            refusals.set(standIn, new GraphQLError(refused.message, { extensions: { code: refused.code } }));
            requestContext.document = standIn;
            return undefined;
          }
          return async (errors) => {
            if (errors) nameInputErrors(document, errors);
          };
        },
        // Bad variables first, then the operation's measures: gqlgen
        // reads the variables before it weighs the query.
        async responseForOperation(requestContext) {
          const { schema, document, operation, request } = requestContext;
          if (!operation) return null; // Apollo refuses it
          const errors = variableErrors(schema, document, operation, request.variables);
          if (errors.length === 0) {
            const { refusal } = measureOperation(schema, document, operation, request.variables, bounds(requestContext));
            if (!refusal) return null;
            errors.push(new GraphQLError(refusal.message, { extensions: { code: refusal.code } }));
          }
          // useStatus gives it its status.
          return { http: { headers: new HeaderMap() }, body: { kind: 'single', singleResult: { errors: clientErrors(errors) } } };
        },
      };
    },
  };
}

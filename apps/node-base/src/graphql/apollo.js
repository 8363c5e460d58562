import { GraphQLError, parse } from 'graphql';
import { HeaderMap } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import { MAX_BODY_BYTES, RETRY_AFTER } from '../http/server.js';
import {
  CLIENT_CODES as CODES_OF_CLIENTS,
  REQUEST_CODES,
  allNull,
  mediaType,
  requestErrorStatus,
  responseType,
  writeError,
} from './errors.js';
import { createInputs } from './inputs.js';
import { MAX_QUERY_TOKENS, checkDocument, checkNesting, checkQuerySize, measureOperation } from './limits.js';
import { knownRootTypeRule } from './rules.js';
import { noteVariables } from './variables.js';

// Apollo Server 5 on Express 5 as the Go graphql app answers, for every
// app that serves GraphQL with Apollo: apollo, and nest-graphql, whose
// NestJS Apollo driver hands these options to the same ApolloServer. The
// Go app's codes and statuses in the two places Apollo has for them
// (formatError gives every error its code and message, useStatus sets the
// response's status from the codes), its limits where its server checks
// them (useLimits), and what it refuses before GraphQL (the Express
// middleware at the end).

/** The codes a client may see with their message: node-base's, and Apollo's refusal of a body that is no request. */
const CLIENT_CODES = new Set([...CODES_OF_CLIENTS, 'BAD_REQUEST']);

// Bad input is refused as the Go app refuses it (graphql/inputs.js),
// where graphql-js and Apollo would answer otherwise: Apollo would make a
// leaf value the schema refuses GRAPHQL_VALIDATION_FAILED in the document
// and a 400 in a variable, and a variable of the wrong shape
// BAD_USER_INPUT, 400. The HTTP status of each is the response's
// (useStatus).

/** badInput is node-base's (graphql/inputs.js), without extensions.http: the schema's (graphql/schema.js). */
export const { badInput, nameInputErrors, variableErrors } = createInputs();

/**
 * apolloOptions are the ApolloServer options every Apollo app sets, beside
 * its schema and landing page: the Go app's codes, statuses and limits,
 * introspection on (the Go app serves the schema; its GraphiQL is a page of
 * its own), no persisted queries and no CSRF header (a GET query needs
 * none, as in the Go app), no stack traces; the app stops Apollo after its
 * HTTP server (stopOnTerminationSignals off).
 */
export function apolloOptions(logger) {
  return {
    introspection: true,
    persistedQueries: false,
    csrfPrevention: false,
    includeStacktraceInErrorResponses: false,
    parseOptions: { maxTokens: MAX_QUERY_TOKENS },
    validationRules: [refusedRule, knownRootTypeRule],
    formatError: createFormatError(logger),
    logger,
    stopOnTerminationSignals: false,
    plugins: [useLimits(), useStatus()],
  };
}

/**
 * createFormatError returns Apollo's formatError: the Go app's code and
 * message for what Apollo words its own way, and INTERNAL, without
 * details, for anything that is not a client's error (logged).
 */
function createFormatError(logger) {
  return (formatted, error) => {
    const code = formatted.extensions?.code;
    // A mutation over GET: Apollo's 405 with Allow: POST, coded BAD_REQUEST.
    if (error instanceof GraphQLError && error.extensions?.http?.status === 405) {
      return { message: 'a mutation must be sent with POST', extensions: { code: 'METHOD_NOT_ALLOWED' } };
    }
    // A scalar's or enum's refusal found by validation, or a limit's
    // (useLimits), which Apollo codes GRAPHQL_VALIDATION_FAILED.
    const own = error?.originalError?.extensions?.code;
    if (code === 'GRAPHQL_VALIDATION_FAILED' && own && own !== code) {
      return { ...formatted, extensions: { ...formatted.extensions, code: own } };
    }
    // A request without a query, as gqlgen codes it.
    if (code === 'BAD_REQUEST' && formatted.message.startsWith('GraphQL operations must contain a non-empty `query`')) {
      return { message: 'no operation provided', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } };
    }
    // An operationName the document does not hold, as gqlgen codes it.
    if (code === 'OPERATION_RESOLUTION_FAILURE') return { ...formatted, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } };
    if (code === 'GRAPHQL_PARSE_FAILED' && formatted.message.includes(`${MAX_QUERY_TOKENS} tokens`)) {
      return { message: `exceeded token limit of ${MAX_QUERY_TOKENS}`, extensions: { code } };
    }
    if (CLIENT_CODES.has(code)) return formatted;
    logger.error({ err: unwrapResolverError(error) }, 'internal error');
    return { message: 'internal error', extensions: { code: 'INTERNAL' } };
  };
}

/**
 * useStatus is the plugin setting the status of every response Apollo
 * answers, and its media type, as the Go app does:
 *
 * - every error UNAVAILABLE and no field answered: 503 with Retry-After and
 *   data null, an outage clients and load balancers see without reading the
 *   body;
 * - a request error (nothing ran, and a parse, validation or limit code):
 *   requestErrorStatus;
 * - Apollo's own 400 (a body that is no request) and 405 (a mutation over
 *   GET) stay;
 * - anything else is a GraphQL response that ran: 200.
 */
function useStatus() {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ request, response }) {
          const accept = request.http?.headers.get('accept');
          const { http, body } = response;
          http.headers.set('content-type', responseType(accept));
          if (body.kind !== 'single') return;
          const result = body.singleResult;
          const codes = result.errors?.map((e) => e.extensions?.code) ?? [];
          if (codes.length > 0 && codes.every((c) => c === 'UNAVAILABLE') && allNull(result.data)) {
            if (result.data !== undefined) result.data = null;
            http.status = 503;
            http.headers.set('retry-after', RETRY_AFTER);
          } else if (result.data === undefined && codes.some((c) => REQUEST_CODES.has(c))) {
            http.status = requestErrorStatus(accept);
          } else if (codes.includes('METHOD_NOT_ALLOWED')) {
            http.status = 405;
          } else {
            http.status = codes.includes('BAD_REQUEST') ? 400 : 200;
          }
        },
      };
    },
  };
}

// The Go app's limits (graphql/limits.js), in the places its server checks
// them, so that a document breaking several limits gets the Go app's code:
// the size before parsing (an Express middleware, refuseLargeQuery: Apollo
// has no hook that answers before it parses), the tokens while parsing
// (parseOptions.maxTokens), the nesting and the document's counts once it
// is parsed and before it is validated (validationDidStart), the
// operation's depth and cost after validation, once the variables are read
// (responseForOperation). Apollo keeps the documents that passed
// validation, and so the limits, by their hash: a document sent again is
// not counted again.

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
function refusedRule(context) {
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
function useLimits() {
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
          // A GET's variables as Apollo parsed them: their numbers as written.
          if (request.http?.method === 'GET') noteVariables(request.variables, new URLSearchParams(request.http.search).get('variables'));
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

// What the Go app refuses before GraphQL, as Express middleware in front
// of Apollo's: refuseUnserved before the body is read, refuseByteOrderMark
// as express.json's verify, bodyRefusal for its errors, refuseLargeQuery
// once it is read (and the body's variables' numbers noted as written,
// variables.js).

/** rawBodies holds each request's body as it came, from express.json's verify to refuseLargeQuery. */
const rawBodies = new WeakMap();

/** NOT_A_REQUEST is the message of a body that is no GraphQL request. */
const NOT_A_REQUEST = 'the body is not a GraphQL request: send one JSON object like {"query": "…", "variables": {…}}';

// The methods /graphql serves, as the Go app lists them in Allow.
const ALLOWED = ['GET', 'HEAD', 'POST', 'OPTIONS'];

/**
 * refuseUnserved answers, before the body is read, what the Go app refuses
 * before GraphQL: another method (405), a body over the limit (413), a
 * POST not sent as JSON (415, where Apollo would take other types or answer
 * 400); OPTIONS is answered with the methods, and HEAD runs as GET. It
 * sets res.locals.signal, aborted when the client leaves.
 */
export function refuseUnserved(req, res, next) {
  if (!ALLOWED.includes(req.method)) {
    res.set('Allow', ALLOWED.join(', '));
    return writeError(req, res, 405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed here: send POST (or GET for a query)`);
  }
  if (req.method === 'OPTIONS') return res.set('Allow', ALLOWED.join(', ')).status(200).end();
  if (Number(req.headers['content-length']) > MAX_BODY_BYTES) {
    // Node reads and drops the body it will not use, so that the client
    // can finish sending it and read the answer.
    return writeError(req, res, 413, 'REQUEST_TOO_LARGE', `the body is larger than ${MAX_BODY_BYTES} bytes`);
  }
  if (req.method === 'POST' && mediaType(req.headers['content-type']) !== 'application/json') {
    const got = req.headers['content-type'] ? `Content-Type ${req.headers['content-type']}` : 'no Content-Type';
    return writeError(req, res, 415, 'UNSUPPORTED_MEDIA_TYPE', `send the request as Content-Type: application/json, not ${got}`);
  }
  // Apollo serves GET and POST; express sends no body for HEAD.
  if (req.method === 'HEAD') req.method = 'GET';
  const signal = new AbortController();
  res.once('close', () => signal.abort());
  res.locals.signal = signal.signal;
  // Apollo's middleware wants req.body set, which express.json leaves
  // unset when there is no body: Apollo then refuses a POST without one.
  req.body = undefined;
  return next();
}

/**
 * refuseByteOrderMark, express.json's verify, refuses a body that starts
 * with a byte-order mark, which JSON sent over a network must not carry
 * (RFC 8259, 8.1) and which express.json would skip: the Go app answers it
 * 400. It keeps the body for refuseLargeQuery.
 */
export function refuseByteOrderMark(req, res, buf) {
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) throw new SyntaxError('the body starts with a byte-order mark');
  rawBodies.set(req, buf);
}

/**
 * bodyRefusal is the Go app's answer, [status, code, message], to an
 * error of express.json reading a body: one over the limit, or one that
 * is no JSON; null for any other error.
 */
export function bodyRefusal(err) {
  if (err.type === 'entity.too.large') return [413, 'REQUEST_TOO_LARGE', `the body is larger than ${MAX_BODY_BYTES} bytes`];
  if (
    err.type === 'entity.parse.failed' ||
    err.type === 'entity.verify.failed' ||
    err.type === 'encoding.unsupported' ||
    err.type === 'charset.unsupported'
  ) {
    return [400, 'BAD_REQUEST', NOT_A_REQUEST];
  }
  return null;
}

/**
 * refuseLargeQuery is the Express middleware refusing a query text over
 * MAX_QUERY_BYTES before Apollo parses it, as a request error, and noting
 * the numbers of the body's variables as written.
 */
export function refuseLargeQuery(req, res, next) {
  const query = req.method === 'POST' ? req.body?.query : req.query.query;
  const refused = typeof query === 'string' ? checkQuerySize(query) : null;
  if (!refused) {
    const raw = rawBodies.get(req);
    if (raw) noteVariables(req.body?.variables, raw, 'variables');
    return next();
  }
  return writeError(req, res, requestErrorStatus(req.headers.accept), refused.code, refused.message);
}

import { GraphQLError, Kind, getOperationAST, parse } from 'graphql';
import { MAX_QUERY_TOKENS } from '@crudbench/node-base/graphql/limits.js';
import { CLIENT_CODES, REQUEST_CODES, allNull, requestErrorStatus, responseType } from '@crudbench/node-base/graphql/errors.js';
import { RETRY_AFTER } from '@crudbench/node-base/http/server.js';
import { inputNamesAt, variableErrors } from './inputs.js';

// The Go app's codes and statuses (apps/graphql/README.md, Errors), in the
// one place Mercurius has for them: its errorFormatter, which every
// response with errors passes, a refusal thrown anywhere on the request's
// way (Fastify's body parser and schema, Mercurius's parsing, validation,
// hooks) as well as the errors of a response that ran. The codes, media
// types and request errors' statuses are node-base's (graphql/errors.js),
// as every GraphQL app's.

/** The statuses of the refusals of HTTP requests that are no GraphQL request. */
const HTTP_CODES = { 400: 'BAD_REQUEST', 405: 'METHOD_NOT_ALLOWED', 413: 'REQUEST_TOO_LARGE', 415: 'UNSUPPORTED_MEDIA_TYPE' };
const HTTP_STATUSES = Object.fromEntries(Object.entries(HTTP_CODES).map(([status, code]) => [code, Number(status)]));

/** Refused is what a hook throws to answer a request with these GraphQL errors instead of running it. */
export class Refused extends Error {
  constructor(errors) {
    super(errors[0].message);
    this.errors = errors;
  }
}

/** refusal is the GraphQLError of a limit's refusal ({ code, message }). */
export const refusal = ({ code, message }) => new GraphQLError(message, { extensions: { code } });

/** sendError answers a request refused before Mercurius runs it: one error with its code, no data. */
export function sendError(request, reply, status, code, message) {
  return reply
    .code(status)
    .type(responseType(request.headers.accept))
    .send(JSON.stringify({ errors: [{ message, extensions: { code } }] }));
}

/** clientError is error as the response carries it, with code and, for bad input, fields. */
function clientError(error, code, fields) {
  const { message, locations, path } = error.toJSON?.() ?? { message: error.message };
  const extensions = fields ? { code, fields } : { code };
  return { message, ...(locations && { locations }), ...(path && { path }), extensions };
}

/** requestOf is the GraphQL request a Fastify request sent: { query, variables }. */
function requestOf(request) {
  if (request.method === 'POST') return { query: request.body?.query, variables: request.body?.variables };
  let variables;
  try {
    variables = request.query.variables ? JSON.parse(request.query.variables) : undefined;
  } catch {
    variables = undefined;
  }
  return { query: request.query.query, variables, operationName: request.query.operationName };
}

/**
 * variableRefusals are the errors of the request's variables in the Go
 * app's terms (inputs.js), for a request Mercurius refused for its
 * variables in graphql-js's: its document (valid, a refusal's only) is
 * parsed again.
 */
function variableRefusals(request, schema) {
  const { query, variables } = requestOf(request);
  const document = parse(query);
  const operation = getOperationAST(document, request.body?.operationName ?? request.query?.operationName);
  return variableErrors(schema, document, operation, variables).map((e) => clientError(e, e.extensions.code, e.extensions.fields));
}

/**
 * refusedErrors are the client's errors of one refusal thrown on the
 * request's way, or null for an error of a field: a hook's (Refused), the
 * HTTP request's (Fastify's body parser and schema, a GET's variables that
 * are no JSON, a mutation over GET), or Mercurius's GraphQL errors (a parse
 * error, validation's, bad variables).
 */
function refusedErrors(error, request, schema) {
  const thrown = error.originalError;
  if (!thrown) return null;
  if (thrown instanceof Refused) return thrown.errors.map((e) => clientError(e, e.extensions.code, e.extensions.fields));
  // A request without a query, which Mercurius answers as a persisted
  // query it does not know, and a GET naming an operation its document
  // does not hold, where Mercurius's check for a mutation fails: gqlgen's
  // request errors.
  if (thrown.code === 'MER_ERR_GQL_PERSISTED_QUERY_NOT_FOUND') {
    return [{ message: 'no operation provided', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }];
  }
  if (thrown instanceof TypeError && request.method === 'GET' && request.query.operationName) {
    const { query, operationName } = requestOf(request);
    if (!getOperationAST(parse(query), operationName)) {
      return [{ message: `operation ${operationName} not found`, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }];
    }
  }
  if (thrown.code === 'MER_ERR_METHOD_NOT_ALLOWED') {
    return [{ message: 'a mutation must be sent with POST', extensions: { code: 'METHOD_NOT_ALLOWED' } }];
  }
  const inner = thrown.errors;
  if (thrown.code?.startsWith?.('FST_') || thrown instanceof SyntaxError || inner?.some((e) => e.validation)) {
    const code = HTTP_CODES[thrown.statusCode] ?? 'BAD_REQUEST';
    const message =
      code === 'BAD_REQUEST'
        ? 'the body is not a GraphQL request: send one JSON object like {"query": "…", "variables": {…}}'
        : thrown.message;
    return [{ message, extensions: { code } }];
  }
  if (thrown.code !== 'MER_ERR_GQL_VALIDATION' || !Array.isArray(inner)) return null;
  if (inner.some((e) => e.nodes?.[0]?.kind === Kind.VARIABLE_DEFINITION)) return variableRefusals(request, schema);
  let names;
  return inner.map((e) => {
    if (e.message.startsWith('Syntax Error:')) {
      const tooMany = e.message.includes(`${MAX_QUERY_TOKENS} tokens`);
      return tooMany
        ? { message: `exceeded token limit of ${MAX_QUERY_TOKENS}`, extensions: { code: 'GRAPHQL_PARSE_FAILED' } }
        : clientError(e, 'GRAPHQL_PARSE_FAILED');
    }
    const code = e.extensions?.code;
    if (code === 'BAD_USER_INPUT') {
      // A scalar's or enum's refusal of a literal, found by validation.
      names ??= inputNamesAt(parse(requestOf(request).query));
      const field = names.get(e.nodes?.[0]?.loc?.start);
      return clientError(e, code, field ? { [field]: e.message } : undefined);
    }
    return clientError(e, CLIENT_CODES.has(code) ? code : 'GRAPHQL_VALIDATION_FAILED');
  });
}

/**
 * createErrorFormatter returns Mercurius's errorFormatter: the Go app's
 * code and message for every error, INTERNAL without details for anything
 * that is not a client's error (logged), and the status as the Go app's
 * transport sets it:
 *
 * - every error UNAVAILABLE and no field answered: 503 with Retry-After and
 *   data null, an outage clients and load balancers see without reading the
 *   body;
 * - a request error (nothing ran, and a parse, validation or limit code):
 *   requestErrorStatus;
 * - a request that is none (400 BAD_REQUEST, 413, 415), or a mutation over
 *   GET (405 with Allow: POST);
 * - an internal error thrown before anything ran: 500;
 * - anything else is a GraphQL response that ran: 200.
 */
export function createErrorFormatter(logger) {
  return (execution, context) => {
    const { reply } = context;
    const request = reply.request;
    const schema = context.app.graphql.schema;
    const errors = [];
    for (const error of execution.errors) {
      const refused = refusedErrors(error, request, schema);
      if (refused) {
        errors.push(...refused);
        continue;
      }
      const code = error.extensions?.code;
      if (CLIENT_CODES.has(code)) {
        errors.push(clientError(error, code, error.extensions.fields));
      } else if (execution.data === undefined && !error.path && !error.originalError) {
        // graphql-js's refusal of the request's operationName, as gqlgen codes it.
        errors.push(clientError(error, 'GRAPHQL_VALIDATION_FAILED'));
      } else {
        logger.error({ err: error.originalError ?? error }, 'internal error');
        errors.push({ message: 'internal error', extensions: { code: 'INTERNAL' } });
      }
    }

    const accept = request.headers.accept;
    const codes = errors.map((e) => e.extensions.code);
    const http = codes.find((c) => HTTP_STATUSES[c]);
    let data = execution.data ?? null;
    let statusCode = 200;
    if (codes.every((c) => c === 'UNAVAILABLE') && allNull(execution.data)) {
      data = null;
      statusCode = 503;
      reply.header('Retry-After', RETRY_AFTER);
    } else if (http) {
      statusCode = HTTP_STATUSES[http];
      if (http === 'METHOD_NOT_ALLOWED') reply.header('Allow', 'POST');
    } else if (execution.data == null && codes.some((c) => REQUEST_CODES.has(c))) {
      statusCode = requestErrorStatus(accept);
    } else if (execution.data === undefined && codes.includes('INTERNAL')) {
      statusCode = 500; // thrown before anything ran
    }
    reply.type(responseType(accept));
    return { statusCode, response: execution.data === undefined && statusCode !== 503 ? { errors } : { data, errors } };
  };
}

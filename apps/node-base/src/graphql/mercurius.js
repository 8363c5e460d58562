import { GraphQLError, Kind, getOperationAST, parse } from 'graphql';
import { MAX_BODY_BYTES, RETRY_AFTER } from '../http/server.js';
import { CLIENT_CODES, REQUEST_CODES, allNull, mediaType, requestErrorStatus, responseType } from './errors.js';
import { createInputs } from './inputs.js';
import { MAX_QUERY_TOKENS, checkDocument, checkNesting, checkQuerySize, measureOperation } from './limits.js';
import { knownRootTypeRule } from './rules.js';
import { noteVariables, parseVariables } from './variables.js';

// Mercurius 16 on Fastify 5 as the Go graphql app answers, for every app
// that serves GraphQL with Mercurius: mercurius, and nest-mercurius, whose
// NestJS Mercurius driver registers the same plugin with these options.
// The Go app's codes and statuses in the one place Mercurius has for them,
// its errorFormatter, which every response with errors passes, a refusal
// thrown anywhere on the request's way (Fastify's body parser and schema,
// Mercurius's parsing, validation, hooks) as well as the errors of a
// response that ran; its limits where its server checks them
// (limitHooks); and what it refuses before GraphQL (addRequestChecks).

// Bad input is refused as the Go app refuses it (graphql/inputs.js), where
// graphql-js and Mercurius would answer otherwise: Mercurius would make a
// leaf value the schema refuses, in the document or a variable, a GraphQL
// validation error, 400. The error formatter names the fields and sets the
// HTTP status.

/** badInput is node-base's (graphql/inputs.js), without extensions.http: the schema's (graphql/schema.js). */
export const { badInput, inputNamesAt, variableErrors } = createInputs();

/**
 * mercuriusOptions are the Mercurius options every Mercurius app sets,
 * beside its schema, loaders and context: the Go app's codes and statuses
 * (errorFormatter), its token limit and gqlparser's rule for a root type
 * the schema has not, no GraphiQL (the Go app serves it as a page of its
 * own); jit is Mercurius's (0: off, its default; n: a query is compiled
 * with graphql-jit once it has run n times).
 */
export function mercuriusOptions(logger, { jit = 0 } = {}) {
  return {
    jit,
    graphiql: false,
    graphql: { parseOptions: { maxTokens: MAX_QUERY_TOKENS } },
    validationRules: [knownRootTypeRule],
    errorFormatter: createErrorFormatter(logger),
  };
}

/** The statuses of the refusals of HTTP requests that are no GraphQL request. */
const HTTP_CODES = { 400: 'BAD_REQUEST', 405: 'METHOD_NOT_ALLOWED', 413: 'REQUEST_TOO_LARGE', 415: 'UNSUPPORTED_MEDIA_TYPE' };
const HTTP_STATUSES = Object.fromEntries(Object.entries(HTTP_CODES).map(([status, code]) => [code, Number(status)]));

/** Refused is what a hook throws to answer a request with these GraphQL errors instead of running it. */
class Refused extends Error {
  constructor(errors) {
    super(errors[0].message);
    this.errors = errors;
  }
}

/** refusal is the GraphQLError of a limit's refusal ({ code, message }). */
const refusal = ({ code, message }) => new GraphQLError(message, { extensions: { code } });

/** sendError answers a request refused before Mercurius runs it: one error with its code, no data. */
function sendError(request, reply, status, code, message) {
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
    variables = request.query.variables ? parseVariables(request.query.variables) : undefined;
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
  // does not hold, or none of several, where Mercurius's check for a
  // mutation fails (a TypeError, answered 500): gqlgen's request errors.
  if (thrown.code === 'MER_ERR_GQL_PERSISTED_QUERY_NOT_FOUND') {
    return [{ message: 'no operation provided', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }];
  }
  if (thrown instanceof TypeError && request.method === 'GET') {
    const { query, operationName } = requestOf(request);
    if (!getOperationAST(parse(query), operationName)) {
      return [{ message: `operation ${operationName ?? ''} not found`, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }];
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
function createErrorFormatter(logger) {
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

// The Go app's limits (graphql/limits.js), in the places its server checks
// them, each at the Mercurius hook that comes there, so that a document
// breaking several limits gets the Go app's code: the size before parsing
// (preParsing), the tokens while parsing (graphql.parseOptions.maxTokens,
// mercuriusOptions), the nesting and the document's counts once it is
// parsed and before it is validated (preValidation), the operation's depth
// and cost after validation, once the variables are read (preExecution).
// Mercurius keeps the documents that passed validation by their text: a
// document sent again is neither validated nor counted again.

/**
 * bounds are the request's deadline (a performance.now() time, set by
 * addRequestChecks when the request arrived) and its signal (aborted when
 * the client leaves), from the request's context.
 */
const bounds = (context) => ({ deadline: context.deadline, signal: context.signal });

/** refuse throws the refusal of a limit, which the error formatter answers. */
function refuse(refused) {
  throw new Refused([refusal(refused)]);
}

/** getOperation is the operation of document the request names, or its only one. */
function getOperation(document, context) {
  const request = context.reply.request;
  return getOperationAST(document, request.method === 'POST' ? request.body?.operationName : request.query.operationName);
}

/**
 * limitHooks are the Mercurius hooks, by name, enforcing the limits, and
 * reading the variables before them: each is added with
 * app.graphql.addHook(name, hook).
 */
export const limitHooks = {
  async preParsing(schema, source) {
    const tooLarge = checkQuerySize(source);
    if (tooLarge) refuse(tooLarge);
  },
  async preValidation(schema, document, context) {
    const refused = checkNesting(document) ?? checkDocument(document, bounds(context)).refusal;
    if (refused) refuse(refused);
  },
  // Bad variables first, then the operation's measures: gqlgen reads the
  // variables before it weighs the query. Mercurius has read them
  // already, but not on the request that compiles a query with graphql-jit.
  async preExecution(schema, document, context, variables) {
    const operation = getOperation(document, context);
    if (!operation) return;
    // A GET's variables as Mercurius parsed them: their numbers as written.
    const request = context.reply?.request;
    if (request?.method === 'GET') noteVariables(variables, request.query.variables);
    const errors = variableErrors(schema, document, operation, variables);
    if (errors.length > 0) throw new Refused(errors);
    const { refusal: refused } = measureOperation(schema, document, operation, variables, bounds(context));
    if (refused) refuse(refused);
  },
};

// The methods /graphql serves, as the Go app lists them in Allow.
const ALLOWED = ['GET', 'HEAD', 'POST', 'OPTIONS'];

/** notFound answers a path the app does not serve as net/http answers it. */
export const notFound = (request, reply) => reply.code(404).type('text/plain; charset=utf-8').send('404 page not found\n');

/**
 * addRequestChecks adds to app, a Fastify instance not yet ready, what the
 * Go app does before GraphQL: each request's deadline (request.deadline,
 * requestTimeoutMs after it arrived) and, on /graphql, its signal
 * (request.gone, aborted when the client leaves before its answer:
 * request.signal is aborted once the body has been read); a path it does
 * not serve answered 404 before its body is read, which Fastify would read
 * first; on /graphql another method refused (405), a body over the limit
 * (413, before it is read), a POST not sent as JSON (415, where Fastify
 * would read text too), OPTIONS answered with the methods; and Fastify's
 * JSON parser refusing a body with a byte-order mark, which JSON sent over
 * a network must not carry (RFC 8259, 8.1) and which Fastify's parser
 * would skip, and noting the numbers of a body's variables as written
 * (variables.js).
 */
export function addRequestChecks(app, { requestTimeoutMs }) {
  app.decorateRequest('deadline', 0);
  app.decorateRequest('gone', null);
  app.addHook('onRequest', async (request, reply) => {
    request.deadline = performance.now() + requestTimeoutMs;
    if (request.url.split('?')[0] !== '/graphql') {
      return request.is404 ? notFound(request, reply) : undefined;
    }
    const gone = new AbortController();
    reply.raw.once('close', () => gone.abort());
    request.gone = gone.signal;
    if (!ALLOWED.includes(request.method)) {
      reply.header('Allow', ALLOWED.join(', '));
      const message = `${request.method} is not allowed here: send POST (or GET for a query)`;
      return sendError(request, reply, 405, 'METHOD_NOT_ALLOWED', message);
    }
    if (request.method === 'OPTIONS') return reply.header('Allow', ALLOWED.join(', ')).code(200).send();
    if (Number(request.headers['content-length']) > MAX_BODY_BYTES) {
      return sendError(request, reply, 413, 'REQUEST_TOO_LARGE', `the body is larger than ${MAX_BODY_BYTES} bytes`);
    }
    if (request.method === 'POST' && mediaType(request.headers['content-type']) !== 'application/json') {
      const got = request.headers['content-type'] ? `Content-Type ${request.headers['content-type']}` : 'no Content-Type';
      return sendError(request, reply, 415, 'UNSUPPORTED_MEDIA_TYPE', `send the request as Content-Type: application/json, not ${got}`);
    }
    return undefined;
  });

  const parseJSON = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body.charCodeAt(0) === 0xfeff) {
      const err = new SyntaxError('the body starts with a byte-order mark');
      err.statusCode = 400;
      return done(err, undefined);
    }
    // Fastify's parser (it refuses __proto__), then the variables'
    // numbers as written (variables.js).
    return parseJSON(request, body, (err, parsed) => {
      if (!err) noteVariables(parsed?.variables, body, 'variables');
      done(err, parsed);
    });
  });
}

// The Go graphql app's codes and media types (apps/graphql/README.md,
// Errors), as every GraphQL app's error translator needs them, whatever
// its engine: which codes a client may see, which refuse a request before
// it runs, the media type of an answer and the status of a request error.

/** REQUEST_CODES are the codes of a request refused before it ran: parse, validation and the document limits. */
export const REQUEST_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'QUERY_TOO_LARGE',
  'OPERATION_LIMIT_EXCEEDED',
  'FRAGMENT_LIMIT_EXCEEDED',
  'SPREAD_LIMIT_EXCEEDED',
  'ALIAS_LIMIT_EXCEEDED',
  'DIRECTIVE_LIMIT_EXCEEDED',
  'SELECTION_LIMIT_EXCEEDED',
  'REPEAT_LIMIT_EXCEEDED',
  'DEPTH_LIMIT_EXCEEDED',
  'COMPLEXITY_LIMIT_EXCEEDED',
]);

/** CLIENT_CODES are the codes a client may see with their message: the request's and the store's; any other error is INTERNAL. */
export const CLIENT_CODES = new Set([
  ...REQUEST_CODES,
  'BAD_USER_INPUT',
  'NOT_FOUND',
  'CONFLICT',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'UNAVAILABLE',
]);

/** GRAPHQL_RESPONSE is the media type of the GraphQL-over-HTTP spec. */
export const GRAPHQL_RESPONSE = 'application/graphql-response+json';

/** mediaType is a Content-Type's or Accept entry's type and subtype, lower case, without parameters. */
export const mediaType = (header) => (header ?? '').split(';')[0].trim().toLowerCase();

/**
 * responseType is the media type of an answer to a request with this
 * Accept, as the Go app chooses it: application/json when the client
 * accepts it (or anything), else application/graphql-response+json.
 */
export function responseType(accept) {
  if (!accept) return 'application/json';
  for (const part of accept.split(',')) {
    const type = mediaType(part);
    if (type === '*/*' || type === 'application/*' || type === 'application/json') return 'application/json';
    if (type === GRAPHQL_RESPONSE) return type;
  }
  return GRAPHQL_RESPONSE;
}

/**
 * requestErrorStatus is the status of a request error: 400 for clients of
 * the GraphQL-over-HTTP spec's media type, 200 for those of
 * application/json, which read the errors of a 200 only.
 */
export const requestErrorStatus = (accept) => (responseType(accept) === GRAPHQL_RESPONSE ? 400 : 200);

/**
 * writeError answers on node:http's response a request refused before
 * GraphQL runs it: one error with its code, no data, in the media type the
 * client accepts. It is also the writer of node-base's answers
 * (graphql/answers.js) for the HTTP server.
 */
export function writeError(req, res, status, code, message) {
  const body = JSON.stringify({ errors: [{ message, extensions: { code } }] });
  res.writeHead(status, { 'Content-Type': responseType(req.headers.accept), 'Content-Length': Buffer.byteLength(body) }).end(body);
}

/** allNull reports whether data is null or an object whose every field is null: no field was answered. */
export const allNull = (data) => data == null || Object.values(data).every((v) => v === null);

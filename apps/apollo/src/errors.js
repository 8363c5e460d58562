import { GraphQLError } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import { MAX_QUERY_TOKENS } from '@crudbench/node-base/graphql/limits.js';
import {
  CLIENT_CODES as CODES_OF_CLIENTS,
  REQUEST_CODES,
  allNull,
  requestErrorStatus,
  responseType,
} from '@crudbench/node-base/graphql/errors.js';
import { RETRY_AFTER } from '@crudbench/node-base/http/server.js';

// The Go app's codes and statuses (apps/graphql/README.md, Errors), in the
// two places Apollo has for them: formatError gives every error its code
// and message, and useStatus sets the response's status from the codes, as
// the Go app's transport does. The codes, media types and request errors'
// statuses are node-base's (graphql/errors.js), as every GraphQL app's.

/** The codes a client may see with their message: node-base's, and Apollo's refusal of a body that is no request. */
const CLIENT_CODES = new Set([...CODES_OF_CLIENTS, 'BAD_REQUEST']);

/**
 * createFormatError returns Apollo's formatError: the Go app's code and
 * message for what Apollo words its own way, and INTERNAL, without
 * details, for anything that is not a client's error (logged).
 */
export function createFormatError(logger) {
  return (formatted, error) => {
    const code = formatted.extensions?.code;
    // A mutation over GET: Apollo's 405 with Allow: POST, coded BAD_REQUEST.
    if (error instanceof GraphQLError && error.extensions?.http?.status === 405) {
      return { message: 'a mutation must be sent with POST', extensions: { code: 'METHOD_NOT_ALLOWED' } };
    }
    // A scalar's or enum's refusal found by validation, or a limit's
    // (limits.js), which Apollo codes GRAPHQL_VALIDATION_FAILED.
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
export function useStatus() {
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
